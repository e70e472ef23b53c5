// Trial findings (issue #30, item 16): `show` of a completed job labelled its completion `failedAt`;
// a job taken over after its worker died ran again as `attempt 1`, with nothing in its log to say
// why it ran twice. Now `show` names the end by the job's state, and a taken-over run is the next
// attempt, with a line in the job's log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { killAll, startFixture, type Fixture } from './support/processes.js';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const QUEUE = 'show-and-attempts';
let world: InboxWorld;
const fixtures: Fixture[] = [];

beforeAll(async () => {
  world = await startInboxWorld({ queue: QUEUE });
});

afterAll(async () => {
  await killAll(fixtures);
  await world?.close();
});

describe('show', () => {
  it('labels a completed job completedAt, not failedAt', async () => {
    const attempts: number[] = [];
    // Every worker of the queue checks for stalled jobs often: the check is skipped queue-wide until
    // the last one's interval has passed, so one default (30 s) would hold up the takeover below.
    const worker = world.startWorker({ stalledIntervalMs: 300, handler: ({ attempt }) => void attempts.push(attempt) });
    const posted = await postDelivery(world.url, await signedDelivery(81_001));
    expect(posted.status).toBe(202);
    const id = posted.body.id!;
    await until('the delivery to complete', async () => (await world.queue.getJobState(id)) === 'completed');
    const shown = JSON.parse((await world.cli('show', id, '--json')).out) as Record<string, unknown>;
    expect(shown.state).toBe('completed');
    expect(shown.completedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    expect(shown).not.toHaveProperty('failedAt');
    expect(attempts).toEqual([1]);
    await worker.close(); // the next test's job is for the worker it starts
  });
});

describe('a job taken over after its worker died', () => {
  it('runs as the next attempt, and its log says why it ran again', async () => {
    const env = { REDIS_URL: world.redis.url, INBOX_QUEUE: QUEUE, WEBHOOK_SECRET: SECRET };
    // The doomed worker's handler never settles for this submission; a lock of 1 s expires soon after it is killed.
    const doomed = await startFixture('worker.mjs', {
      ...env,
      HANG_SUBMISSION: '81002',
      LOCK_MS: '1000',
      STALLED_MS: '300',
    });
    fixtures.push(doomed);
    const posted = await postDelivery(world.url, await signedDelivery(81_002));
    const id = posted.body.id!;
    const first = (await doomed.waitFor((m) => m.type === 'started' && m.id === id)) as { attempt: number };
    expect(first.attempt).toBe(1);
    expect(await doomed.kill('SIGKILL')).toBe('SIGKILL');

    const runs: number[] = [];
    world.startWorker({
      lockDurationMs: 1_000,
      stalledIntervalMs: 300,
      handler: ({ id: runId, attempt }) => void (runId === id && runs.push(attempt)),
    });
    await until('the survivor to complete the job', async () => (await world.queue.getJobState(id)) === 'completed');
    expect(runs).toEqual([2]);
    const shown = JSON.parse((await world.cli('show', id, '--json')).out) as { logs: string[] };
    expect(shown.logs).toEqual([
      'attempt 2 taken over: the run before it ended without an outcome, because its worker stopped renewing the lock (the process died or blocked its event loop)',
    ]);
  });
});
