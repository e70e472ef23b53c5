// What operators read must be safe whatever a delivery or a job holds: a failure reason quoting a
// form answer with ESC/CR/BEL is escaped (`failed`, and the worker's default failure line);
// credential-like headers are masked by pattern, not by a list of names; a job whose data is not
// JSON, or whose body is `null`, is failed with the reason instead of staying active for ever or
// reaching the handler, and `show` explains it without a stack trace; `retry --all` sends each
// dead letter back once, even when the handler keeps failing; a completed job keeps its body within
// the default byte budget (completed-deliveries-keep-their-bodies-within-a-byte-budget covers the budget).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from '@forms-api/test-support';
import { postDelivery, signedDelivery } from './support/deliveries.js';
import { queueIsIdle } from './support/settled.js';
import { startInboxWorld, type InboxWorld, type WorldWorkerOptions } from './support/world.js';

const QUEUE = 'hostile';
const HOSTILE_REASON = 'CRM refused \u001b[2J\u001b[1;1Hfake prompt$ \rOVERWRITTEN\u0007 \u009b31m \u202eevil';
let world: InboxWorld;
const runs: Array<{ submissionId: number; payload: unknown }> = [];

const startWorker = (onFailure?: WorldWorkerOptions['onFailure']) =>
  world.startWorker({
    concurrency: 4,
    handler: ({ payload }) => {
      runs.push({ submissionId: payload?.submission_id as number, payload });
      if (payload!.submission_id >= 100) throw new Error(`${HOSTILE_REASON} (submission ${payload!.submission_id})`);
    },
    ...(onFailure ? { onFailure } : {}),
  });

beforeAll(async () => {
  world = await startInboxWorld({ queue: QUEUE, inbox: { retry: { attempts: 1, backoffMs: 10 } } });
});

afterAll(() => world?.close());

const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;

describe('hostile jobs', () => {
  it('escapes control characters of a failure reason in `failed` and in the default failure line', async () => {
    const lines: string[] = [];
    const stderr = vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(String(line)));
    const delivery = await signedDelivery(100);
    let id = '';
    try {
      startWorker();
      const posted = await postDelivery(world.url, delivery);
      expect(posted.status).toBe(202);
      id = posted.body.id!;
      await until('the default failure line', () => lines.some((line) => line.includes(id)));
    } finally {
      stderr.mockRestore();
    }
    const line = lines.find((l) => l.includes('stays in the failed set'))!;
    expect(line).not.toMatch(CONTROL);
    expect(line).toContain(
      'CRM refused \\x1b[2J\\x1b[1;1Hfake prompt$ \\x0dOVERWRITTEN\\x07 \\x9b31m \\u202eevil (submission 100)',
    );
    const listed = await world.cli('failed');
    expect(listed.out).not.toMatch(CONTROL);
    expect(listed.out).toContain('\\x1b[2J');
    const shown = await world.cli('show', id);
    expect(shown.out).not.toMatch(CONTROL);
    // --json stays exact JSON: the reason parses back to the very characters.
    expect(JSON.parse((await world.cli('failed', '--json')).out)[0].failedReason).toBe(
      `${HOSTILE_REASON} (submission 100)`,
    );
  });

  it('masks credential-like headers by pattern, and credential-like values whatever the name', async () => {
    const delivery = await signedDelivery(101);
    const secrets: Record<string, string> = {
      'x-auth': 'auth-value-1',
      'x-webhook-auth': 'auth-value-2',
      'x-credentials': 'cred-value-3',
      'x-passphrase': 'pass-value-4',
      'x-pass': 'pass-value-5',
      'x-jwt': 'jwt-value-6',
      'x-session': 'session-value-7',
      'x-sig': 'sig-value-8',
      'x-custom-api-token': 'token-value-9',
      'x-forwarded-note': 'Bearer bearer-value-10',
      'x-innocent-name': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
    };
    const posted = await postDelivery(world.url, delivery, { ...secrets, 'x-tenant': 'acme' });
    expect(posted.status).toBe(202);
    await until('the dead letter', async () => (await world.queue.getJob(posted.body.id!))?.failedReason !== undefined);
    const shown = await world.cli('show', posted.body.id!, '--json');
    const headers = JSON.parse(shown.out).delivery.headers as Record<string, string>;
    for (const [name, value] of Object.entries(secrets)) {
      expect(headers[name]).toBe(`<masked, ${value.length} chars>`);
      expect(shown.out).not.toContain(value);
    }
    expect(headers['x-tenant']).toBe('acme');
    expect(headers['content-type']).toBe('application/json');
  });

  it('fails a job whose data is not JSON, or whose body is null, with the reason; `show` explains without a stack trace', async () => {
    // Delayed, so its data can be spoiled before a worker takes it.
    const notJson = await world.queue.add(
      'submission.created',
      { v: 1 },
      { jobId: 'wh-not-json', attempts: 3, delay: 300 },
    );
    await world.raw.hset(world.queue.toKey(notJson.id!), 'data', '{"v":1,"body":');
    const nullBody = await world.queue.add(
      'submission.created',
      { v: 1, body: Buffer.from('null').toString('base64'), headers: {}, receivedAt: Date.now() },
      { jobId: 'wh-null-body', attempts: 3 },
    );
    await until(
      'both to be failed',
      async () =>
        (await world.raw.zscore(world.queue.toKey('failed'), 'wh-not-json')) !== null &&
        (await world.raw.zscore(world.queue.toKey('failed'), 'wh-null-body')) !== null,
      { timeoutMs: 10_000 },
    );
    expect(runs.some((run) => run.payload === null)).toBe(false);

    const shown = await world.cli('show', 'wh-not-json');
    expect(shown.err).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.err).toBe('');
    expect(shown.out).not.toMatch(/\n\s+at /);
    expect(JSON.parse(shown.out)).toMatchObject({
      state: 'failed',
      attemptsMade: 1,
      delivery: { error: expect.stringMatching(/holds data that is not JSON/) },
    });
    expect(JSON.parse(shown.out).failedReason).toMatch(/holds data that is not JSON/);
    expect(JSON.parse((await world.cli('show', nullBody.id!)).out).failedReason).toMatch(
      /holds a body that is null, not a submission.created object/,
    );
    const listed = JSON.parse((await world.cli('failed', '--json', '--limit', '100')).out) as Array<{ id: string }>;
    expect(listed.map((row) => row.id)).toEqual(expect.arrayContaining(['wh-not-json', 'wh-null-body']));
    await world.raw.del(world.queue.toKey('wh-not-json'));
    await world.raw.zrem(world.queue.toKey('failed'), 'wh-not-json', 'wh-null-body');
    await world.raw.del(world.queue.toKey('wh-null-body'));
  });

  it('retry --all sends each dead letter back once, however fast the handler fails again', async () => {
    await world.raw.del(world.queue.toKey('failed'));
    const deliveries = await Promise.all(Array.from({ length: 20 }, (_, i) => signedDelivery(200 + i)));
    for (const delivery of deliveries) expect((await postDelivery(world.url, delivery)).status).toBe(202);
    await until('20 dead letters', async () => (await world.queue.getFailedCount()) === 20);
    const before = runs.length;

    const retried = await world.cli('retry', '--all');
    expect(retried.code).toBe(0);
    expect(retried.out).toMatch(/^20 failed deliveries sent back to the queue/m);
    expect(retried.out.match(/^retrying /gm)).toHaveLength(20);
    await until(
      'each to fail again',
      async () => (await world.queue.getFailedCount()) === 20 && runs.length - before >= 20,
    );
    await queueIsIdle(world.redis.port, world.queue.name);
    expect(runs.length - before).toBe(20);
  });

  it('keeps the body of a completed job within the default budget, and `show` prints it with its headers masked', async () => {
    const delivery = await signedDelivery(7, 200_000);
    const posted = await postDelivery(world.url, delivery, { 'x-jwt': 'eyJhbGciOiJIUzI1NiJ9.e30.sig' });
    expect(posted.status).toBe(202);
    const id = posted.body.id!;
    await until(
      'the job to complete and its body to be accounted',
      async () => (await world.raw.zscore(world.queue.toKey('kept-bodies'), id)) !== null,
    );
    expect(((await world.queue.getJob(id))!.data as { body?: unknown }).body).toBe(
      Buffer.from(delivery.body).toString('base64'),
    );
    expect(Number(await world.raw.get(world.queue.toKey('kept-bodies:total')))).toBe(Buffer.byteLength(delivery.body));
    const shown = JSON.parse((await world.cli('show', id, '--json')).out);
    expect(shown).toMatchObject({
      state: 'completed',
      delivery: {
        payload: { submission_id: 7 },
        bytes: Buffer.byteLength(delivery.body),
        headers: { 'content-type': 'application/json', 'x-jwt': '<masked, 28 chars>' },
      },
    });
  });
});
