// What a handler that blocks its event loop costs, measured (issue 29): while the loop is
// blocked BullMQ cannot renew the job's lock. A block shorter than the renewal period (half of
// lockDurationMs) is harmless: the delivery runs once. A block longer than lockDurationMs lets
// the lock expire, another worker's stalled check hands the job to another worker, and the
// delivery runs twice at the same time; the blocked run is reported lock_lost and its outcome
// discarded, but its effects have happened. The figures are printed for the README.
import { describe, expect, it } from 'vitest';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { processWorldPerFile, startFixture, type Fixture, type FixtureMessage } from './support/processes.js';

const world = processWorldPerFile();
const LOCK_MS = 1_000;
const SHORT_BLOCK_MS = 300; // under the renewal period, LOCK_MS / 2
const LONG_BLOCK_MS = 2_500; // over LOCK_MS

const startedRuns = (workers: Fixture[], submissionId: number) =>
  workers
    .flatMap((w) => w.messages)
    .filter(
      (m): m is Extract<FixtureMessage, { type: 'started' }> => m.type === 'started' && m.submissionId === submissionId,
    );

describe('a handler that blocks the event loop', () => {
  it('runs once when it blocks under half of lockDurationMs, and twice, on two workers, when it blocks past it', async () => {
    const env = { REDIS_URL: world.redis.url, WEBHOOK_SECRET: SECRET, INBOX_QUEUE: 'blocking' };
    const workerEnv = {
      ...env,
      CONCURRENCY: '1',
      LOCK_MS: String(LOCK_MS),
      STALLED_MS: '300',
      BLOCKS: `1:${SHORT_BLOCK_MS},2:${LONG_BLOCK_MS}`,
    };
    const started = await Promise.all([
      startFixture('receiver.mjs', env),
      startFixture('worker.mjs', workerEnv),
      startFixture('worker.mjs', workerEnv),
    ]);
    world.fixtures.push(...started);
    const [receiver, ...workers] = started as [Fixture, Fixture, Fixture];
    const url = `http://127.0.0.1:${receiver.port}/webhooks/forms`;
    const done = (submissionId: number) =>
      Promise.race(workers.map((w) => w.waitFor((m) => m.type === 'done' && m.submissionId === submissionId)));

    expect((await postDelivery(url, await signedDelivery(1))).status).toBe(202);
    await done(1);
    expect((await postDelivery(url, await signedDelivery(2))).status).toBe(202);
    // Both runs of the long block finish: the blocked one and the one taken over meanwhile.
    await Promise.all(workers.map((w) => w.waitFor((m) => m.type === 'done' && m.submissionId === 2, 30_000)));

    const short = startedRuns(workers, 1);
    const long = startedRuns(workers, 2);
    console.log(
      `blocking handler, lockDurationMs ${LOCK_MS}: a ${SHORT_BLOCK_MS} ms block ran ${short.length} time(s); a ${LONG_BLOCK_MS} ms block ran ${long.length} time(s) on ${new Set(long.map((m) => m.pid)).size} worker(s)`,
    );
    expect(short).toHaveLength(1);
    expect(new Set(long.map((m) => m.pid)).size).toBe(2);
    expect(workers.map((w) => w.output()).join('')).toMatch(/lock_lost|The event loop was blocked for \d+ ms/);
  });
});
