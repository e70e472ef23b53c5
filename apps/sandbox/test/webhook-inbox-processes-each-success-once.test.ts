// The sandbox dispatches real signed submission.created webhooks to a @forms-api/webhook-inbox
// receiver on a real redis-server, through an outage of Redis: every delivery the sandbox recorded
// as `success` is processed by the inbox worker exactly once, and those it recorded as `failed`
// (the receiver answered 503 while Redis was down) are not processed at all.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInbox, createInboxWorker, type Inbox, type InboxWorker } from '@forms-api/webhook-inbox';
import { runInboxCli } from '@forms-api/webhook-inbox/cli';
import { closeHttpServer, inboxMiddleware } from '@forms-api/webhook-inbox/express';
import type { SandboxHandle } from '../src/index.js';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { listen, until } from '@forms-api/test-support';
import { call, sandbox } from './support.js';

const SECRET = 'whsec_sandbox_inbox_secret';

let redis: RedisServer | undefined;
let inbox: Inbox | undefined;
let worker: InboxWorker | undefined;
let receiver: Server | undefined;
/** `http://127.0.0.1:<port>`: the receiver's server. */
let receiverBase = '';
let sb: SandboxHandle | undefined;
const processed: number[] = [];

beforeAll(async () => {
  // Persistence on, every write synced: a delivery Redis acknowledged (202) survives the SIGKILL
  // below whether or not the worker had taken it yet, as the inbox promises.
  redis = await startRedisServer({ appendonly: true, appendfsync: 'always' });
  inbox = createInbox({ connection: redis.url, secret: SECRET, queue: 'sandbox', onRedisError: () => {} });
  // A job the worker was taking when Redis was killed is active in Redis but in no worker's hands:
  // BullMQ gives it back once its lock expires and a stalled check runs (30 s each by default).
  // Shorter here, so that recovery fits the test's wait.
  worker = createInboxWorker({
    connection: redis.url,
    queue: 'sandbox',
    concurrency: 8,
    lockDurationMs: 5_000,
    stalledIntervalMs: 1_000,
    onRedisError: () => {},
    handler: (d) => void processed.push(d.payload!.submission_id),
  });
  receiver = createServer(inboxMiddleware(inbox));
  ({ url: receiverBase } = await listen(receiver));
  await until('the inbox healthy', async () => (await inbox!.health()).ok, WAIT);
  sb = await sandbox();
});

afterAll(async () => {
  await sb?.close();
  if (receiver) await closeHttpServer(receiver);
  await inbox?.close();
  await worker?.close();
  await redis?.close();
});

const WAIT = { timeoutMs: 20_000 };

/**
 * The queue holds no job that could still run, as `forms-webhook-inbox stats` counts them: the
 * states the inbox's own tests wait on (its test/support/settled.ts `queueIsIdle`, which reads
 * BullMQ directly; the sandbox reads the queue as an operator does).
 */
async function queueEmpty(): Promise<boolean> {
  let out = '';
  const code = await runInboxCli(['stats', '--json', '--redis', redis!.url, '--queue', 'sandbox'], {
    out: (line) => (out += line),
    err: () => {},
  });
  if (code !== 0) return false;
  const { counts } = JSON.parse(out) as { counts: Record<string, number> };
  return ['waiting', 'prioritized', 'delayed', 'active', 'waiting-children'].every((state) => counts[state] === 0);
}

describe('the sandbox and the webhook inbox', () => {
  it('processes every delivery the sandbox recorded as success exactly once, and none it recorded as failed', async () => {
    const s = sb!;
    const url = `${receiverBase}/webhooks/forms`;
    const created = await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: s.tokens.all,
      body: { integration_id: 'webhook', status: 'active', data: { webhook_url: url, webhook_secret: SECRET } },
      operationId: 'createFormIntegration',
    });
    expect(created.status).toBe(200);
    const integrationId = created.body.form_integration.id as number;
    const form = (await call(s.baseUrl, 'GET', '/open/forms/11', { token: s.tokens.all })).body;
    const nameField = form.properties.find((p: { name: string }) => p.name === 'Name').id as string;
    const emailField = form.properties.find((p: { name: string }) => p.name === 'Email').id as string;
    const submit = (count: number, marker: string) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          fetch(`${s.baseUrl}/forms/11/answer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ [nameField]: `${marker} ${i}`, [emailField]: 'ada@example.com' }),
          }).then((r) => r.status),
        ),
      );

    expect(await submit(150, 'before')).toEqual(Array(150).fill(200));
    await redis!.stop('SIGKILL');
    expect(await submit(20, 'outage')).toEqual(Array(20).fill(200));
    await redis!.start();
    await until('the inbox healthy', async () => (await inbox!.health()).ok, WAIT);
    expect(await submit(30, 'after')).toEqual(Array(30).fill(200));

    const events = (
      await call(s.baseUrl, 'GET', `/open/forms/11/integrations/${integrationId}/events`, {
        token: s.tokens.all,
        operationId: 'listIntegrationEvents',
      })
    ).body as Array<{ status: string; response_code: number | null }>;
    const successes = events.filter((e) => e.status === 'success');
    expect(events).toHaveLength(200);
    expect(successes).toHaveLength(180);
    expect(successes.every((e) => e.response_code === 202)).toBe(true);
    expect(events.filter((e) => e.status === 'failed').every((e) => e.response_code === 503)).toBe(true);

    // Once no job is left that could run (none waiting, delayed or active: a job the worker held
    // when Redis was killed stays active until it is given back), nothing more can be processed.
    await until('the queue emptied', queueEmpty, WAIT);
    expect(processed).toHaveLength(successes.length);
    expect(new Set(processed).size).toBe(processed.length);
    // By name: every submission made while Redis was up was processed, none made during the outage.
    const phaseOf = new Map<number, string>();
    for (let page = 1; ; page++) {
      const listed = (
        await call(s.baseUrl, 'GET', `/open/forms/11/submissions?per_page=100&page=${page}`, { token: s.tokens.all })
      ).body;
      for (const item of listed.data as Array<{ data: Record<string, unknown> & { id: number } }>) {
        const name = item.data[nameField];
        if (typeof name === 'string') phaseOf.set(item.data.id, name.split(' ')[0]!);
      }
      if (page >= listed.meta.last_page) break;
    }
    const processedPhases = processed.map((id) => phaseOf.get(id));
    expect(processedPhases.filter((p) => p === 'before')).toHaveLength(150);
    expect(processedPhases.filter((p) => p === 'after')).toHaveLength(30);
    expect(processedPhases.filter((p) => p === 'outage')).toHaveLength(0);
  });
});
