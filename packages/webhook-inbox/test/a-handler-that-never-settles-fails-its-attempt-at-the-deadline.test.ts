// A handler that never settles (a fetch without a timeout, a promise nobody resolves) must not hold
// its job for ever: at `handlerTimeoutMs` the attempt fails and is retried, then dead-lettered with
// a reason that says so; the deliveries behind it (concurrency 1) are handled meanwhile; and the
// worker's health check fails while a run that ignored its abort signal is still going.
import { describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { runInboxCli } from '../src/cli.js';
import { jobIdFor } from '../src/index.js';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { processWorldPerFile, startFixture } from './support/processes.js';

const world = processWorldPerFile();
const QUEUE = 'deadline';

async function failedJobs(): Promise<
  Array<{ id: string; attemptsMade: number; maxAttempts: number; failedReason: string }>
> {
  let out = '';
  const code = await runInboxCli(['failed', '--json', '--redis', world.redis.url, '--queue', QUEUE], {
    out: (line) => (out += line),
    err: () => {},
  });
  expect(code).toBe(0);
  return JSON.parse(out);
}

describe('the per-attempt handler deadline', () => {
  it('fails a run that never settles, retries it, dead-letters it with the reason, and keeps the queue moving', async () => {
    const env = { REDIS_URL: world.redis.url, WEBHOOK_SECRET: SECRET, INBOX_QUEUE: QUEUE };
    const receiver = await startFixture('receiver.mjs', { ...env, ATTEMPTS: '2', BACKOFF_MS: '100' });
    const worker = await startFixture('worker.mjs', {
      ...env,
      CONCURRENCY: '1',
      HANG_SUBMISSION: '7',
      HANDLER_TIMEOUT_MS: '600',
      HEALTH: '1',
    });
    world.fixtures.push(receiver, worker);
    const url = `http://127.0.0.1:${receiver.port}/webhooks/forms`;
    const health = async () => {
      const response = await fetch(`http://127.0.0.1:${worker.port}/healthz`);
      return { status: response.status, body: (await response.json()) as { reason?: string; message?: string } };
    };
    expect((await health()).status).toBe(200);

    const hanging = await signedDelivery(7);
    const behind = await signedDelivery(8);
    expect((await postDelivery(url, hanging)).status).toBe(202);
    await worker.waitFor((m) => m.type === 'started' && m.submissionId === 7);
    expect((await postDelivery(url, behind)).status).toBe(202);

    // The one slot is freed at the deadline: the delivery behind it runs.
    await worker.waitFor((m) => m.type === 'done' && m.submissionId === 8, 10_000);
    // The hung run ignored its signal and still runs: the worker says so.
    const stuck = await health();
    expect(stuck).toMatchObject({ status: 503, body: { reason: 'handler_stuck' } });
    expect(stuck.body.message).toMatch(/outlived handlerTimeoutMs \(600 ms\)/);

    await worker.waitFor((m) => m.type === 'started' && m.submissionId === 7 && m.attempt === 2, 10_000);
    await until('the hung delivery to be dead-lettered', async () => (await failedJobs()).length === 1, {
      timeoutMs: 10_000,
    });
    const [dead] = await failedJobs();
    expect(dead).toMatchObject({ id: jobIdFor(hanging.body), attemptsMade: 2, maxAttempts: 2 });
    expect(dead!.failedReason).toMatch(/did not settle within 600 ms \(handlerTimeoutMs\)/);
    expect(worker.messages.some((m) => m.type === 'done' && m.submissionId === 7)).toBe(false);
  });
});
