// A handler that keeps failing: retries with exponential backoff, then the delivery stays in the
// failed set with its error, payload and attempts. The CLI lists it, shows it (credentials masked),
// sends it back with a fresh set of attempts, reports the queue and waits for it to drain.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { runInboxCli } from '../src/cli.js';
import { inboxQueuePrefix, jobIdFor, type InboxDelivery } from '../src/index.js';
import { postDelivery, signedDelivery } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const QUEUE = 'dead-letters';
let world: InboxWorld;
let failing = true;
const runs: InboxDelivery[] = [];
const runTimes: number[] = [];
const failures: Array<{ id: string; attempt: number; final: boolean }> = [];

beforeAll(async () => {
  world = await startInboxWorld({
    queue: QUEUE,
    path: '/webhooks/forms',
    inbox: { retry: { attempts: 3, backoffMs: 100, jitter: 0 } },
    worker: {
      handler: (delivery) => {
        runs.push(delivery);
        runTimes.push(performance.now());
        if (failing) throw new Error(`the CRM refused submission ${delivery.payload!.submission_id}`);
      },
      onFailure: ({ id, attempt, final }) => failures.push({ id, attempt, final }),
    },
  });
});

afterAll(() => world?.close());

describe('dead letters', () => {
  it('retries with backoff, then keeps the failed delivery with its error, payload and attempts', async () => {
    const delivery = await signedDelivery(4242);
    const id = jobIdFor(delivery.body);
    expect((await postDelivery(world.url, delivery, { 'x-api-key': 'k-secret-1' })).status).toBe(202);
    await until('three attempts and a final failure', () => failures.some((f) => f.final));
    expect(failures).toEqual([
      { id, attempt: 1, final: false },
      { id, attempt: 2, final: false },
      { id, attempt: 3, final: true },
    ]);
    expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(runs[0]).toMatchObject({ id, maxAttempts: 3, payload: { submission_id: 4242, form_id: 11 } });
    expect(Buffer.from(runs[0]!.rawBody!).toString('utf8')).toBe(delivery.body);
    expect(runs[0]!.headers).toMatchObject({
      'x-webhook-signature': delivery.signature,
      'x-api-key': 'k-secret-1',
      'content-type': 'application/json',
    });
    // Exponential backoff from 100 ms, without jitter here (its own test covers it): about 100 ms before the first retry, 200 ms before the second.
    const [firstGap, secondGap] = [runTimes[1]! - runTimes[0]!, runTimes[2]! - runTimes[1]!];
    expect(firstGap).toBeGreaterThanOrEqual(95);
    expect(secondGap).toBeGreaterThanOrEqual(195);

    const listed = await world.cli('failed', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toEqual([
      {
        id,
        attemptsMade: 3,
        maxAttempts: 3,
        failedAt: expect.any(String),
        failedReason: 'the CRM refused submission 4242',
        formId: 11,
        submissionId: 4242,
      },
    ]);
    const human = await world.cli('failed');
    expect(human.out).toContain(`${id}  attempts 3/3`);
    expect(human.out).toContain('the CRM refused submission 4242');

    const shown = await world.cli('show', id, '--json');
    const detail = JSON.parse(shown.out);
    expect(detail).toMatchObject({
      id,
      state: 'failed',
      attemptsMade: 3,
      delivery: { payload: JSON.parse(delivery.body), bytes: Buffer.byteLength(delivery.body) },
    });
    expect(detail.stacktrace.length).toBeGreaterThan(0);
    // Credentials are shown as their length only: CLI output gets pasted into tickets.
    expect(detail.delivery.headers['x-webhook-signature']).toBe('<masked, 71 chars>');
    expect(detail.delivery.headers['x-api-key']).toBe('<masked, 10 chars>');
    expect(shown.out).not.toContain(delivery.signature.slice(7));
    expect(shown.out).not.toContain('k-secret-1');

    const stats = JSON.parse((await world.cli('stats', '--json')).out);
    expect(stats).toMatchObject({ queue: QUEUE, counts: { failed: 1, waiting: 0, active: 0 }, aof: false });
    expect((await world.cli('stats')).out).toMatch(/AOF off/);
  });

  it('sends a dead letter back with a fresh set of attempts, and drains', async () => {
    const [failed] = JSON.parse((await world.cli('failed', '--json')).out) as Array<{ id: string }>;
    failing = false;
    runs.length = 0;
    const retried = await world.cli('retry', failed!.id);
    expect(retried).toMatchObject({ code: 0, out: `retrying ${failed!.id} (back in the queue with 3 attempts)\n` });
    const drained = await world.cli('drain', '--timeout-ms', '10000');
    expect(drained.code).toBe(0);
    expect(drained.out).toContain('drained');
    await until('the retried run', () => runs.length === 1);
    expect(runs[0]).toMatchObject({ id: failed!.id, attempt: 1 });
    expect(JSON.parse((await world.cli('stats', '--json')).out).counts).toMatchObject({ failed: 0, completed: 1 });
    expect(JSON.parse((await world.cli('failed', '--json')).out)).toEqual([]);
  });

  it('fails a job another producer added at once, saying so, instead of guessing at its data', async () => {
    const { Queue } = await import('bullmq');
    const foreign = new Queue(QUEUE, {
      connection: { host: '127.0.0.1', port: world.redis.port },
      prefix: inboxQueuePrefix(QUEUE),
    });
    try {
      const job = await foreign.add('something-else', { hello: 'world' }, { attempts: 5 });
      await until('the foreign job to fail', () => failures.some((f) => f.id === job.id));
      expect(failures.find((f) => f.id === job.id)).toEqual({ id: job.id, attempt: 1, final: true });
      const shown = JSON.parse((await world.cli('show', job.id!, '--json')).out);
      expect(shown).toMatchObject({
        state: 'failed',
        attemptsMade: 1,
        formId: null,
        delivery: { error: expect.stringMatching(/another producer/) },
      });
      expect(shown.failedReason).toMatch(/does not hold a delivery written by @forms-api\/webhook-inbox/);
      await (await foreign.getJob(job.id!))!.remove();
    } finally {
      await foreign.close();
    }
  });

  it('says what is wrong, with exit codes 1 and 2', async () => {
    const [completedId] = runs.map((r) => r.id);
    expect(await world.cli('retry', completedId!)).toMatchObject({
      code: 1,
      err: expect.stringContaining('is completed, not failed'),
    });
    expect(await world.cli('show', 'wh-nope')).toMatchObject({
      code: 1,
      err: expect.stringContaining('No job wh-nope'),
    });
    expect(await world.cli('retry')).toMatchObject({ code: 2, err: expect.stringContaining('retry needs a job id') });
    expect(await world.cli('explode')).toMatchObject({
      code: 2,
      err: expect.stringContaining('Unknown inbox command "explode"'),
    });
    expect(await world.cli('failed', '--limit', '0')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--limit must be a positive whole number'),
    });
    // What it was given is named escaped: a pasted value cannot drive the terminal.
    const pasted = await world.cli('failed', '--\u001b[2Jlimit');
    expect(pasted.code).toBe(2);
    expect(pasted.err).toContain('--\\x1b[2Jlimit');
    expect(pasted.err).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    // It gives up on the refusal itself (named in the line), not after retries or a connect timeout.
    const unreachable = await runInboxCli(['stats', '--redis', 'redis://127.0.0.1:1'], {
      out: () => {},
      err: (l) => expect(l).toMatch(/Could not reach Redis at 127\.0\.0\.1:1 \(connect ECONNREFUSED/),
    });
    expect(unreachable).toBe(1);
  });

  it('waits for pending jobs and gives up after --timeout-ms without deleting them', async () => {
    await world.worker!.close(); // nobody processes: the next delivery stays waiting
    const delivery = await signedDelivery(5151);
    expect((await postDelivery(world.url, delivery)).status).toBe(202);
    const drained = await world.cli('drain', '--timeout-ms', '300');
    expect(drained.code).toBe(1);
    expect(drained.err).toMatch(/still 1 pending after 300 ms \(waiting 1,.*Nothing was deleted/);
    expect(JSON.parse((await world.cli('stats', '--json')).out).counts.waiting).toBe(1);
  });

  it('runs as the standalone forms-webhook-inbox command', async () => {
    const bin = fileURLToPath(new URL('../bin/forms-webhook-inbox.js', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'stats', '--queue', QUEUE], {
      env: { ...process.env, FORMS_INBOX_REDIS_URL: world.redis.url },
    });
    expect(stdout).toMatch(new RegExp(`queue ${QUEUE} on 127\\.0\\.0\\.1:${world.redis.port}`));
    expect(stdout).toMatch(/waiting\s+1/);
  });
});
