// Red team finding (#29, 4): behind Sentinel, a primary that hangs (SIGSTOP here: a frozen VM or
// a partition, no reset, no READONLY) kept every connection open and silent; Sentinel promoted
// the replica within seconds, but receivers answered 503 enqueue_timeout for as long as it was
// watched. Now ioredis' failover detector (and a reconnect after an enqueue timeout) takes
// receivers and workers to the promoted replica: every delivery sent by a sender that posts again
// after a 503 runs, and runs once, also once the old primary resumes as a replica, but for the two
// second runs the README allows: a run under way at the promotion, and a job a worker took from
// the old primary as it woke (6 of 20 runs of this file had one, on an idle machine).
// The refusal window is printed, not asserted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisSentinel, type RedisSentinelSet } from '@forms-api/redis-server';
import { SECRET } from './support/deliveries.js';
import { killAll, startFixture, type Fixture } from './support/processes.js';
import { deliverThroughAFault, expectEachRanOnce } from './support/through-a-fault.js';

// `pnpm bench` runs this file with 5,000 deliveries through 3 receivers and 3 workers.
const COUNT = Number(process.env.TOPOLOGY_DELIVERIES ?? 300);
const PROCESSES = Number(process.env.TOPOLOGY_PROCESSES ?? 2);
let sentinel: RedisSentinelSet;
const fixtures: Fixture[] = [];

beforeAll(async () => {
  // Two replicas: one confirms deliveries (waitForReplicas 1) while the other is promoted.
  sentinel = await startRedisSentinel({ replicas: 2, sentinels: 3 });
}, 60_000);

afterAll(async () => {
  await killAll(fixtures);
  await sentinel?.close();
});

describe('the inbox behind Sentinel', () => {
  it('takes deliveries again once a replica of a hung primary is promoted, losing none and running each once', async () => {
    const env = {
      REDIS_SENTINELS: sentinel.seeds.map((seed) => `${seed.host}:${seed.port}`).join(','),
      REDIS_MASTER: sentinel.masterName,
      WEBHOOK_SECRET: SECRET,
      INBOX_QUEUE: 'behind-sentinel',
      // A delivery is acknowledged once a replica has it, so the hung primary keeps none to itself.
      WAIT_REPLICAS: '1',
    };
    const started = await Promise.all([
      ...Array.from({ length: PROCESSES }, () => startFixture('receiver.mjs', env)),
      ...Array.from({ length: PROCESSES }, () => startFixture('worker.mjs', { ...env, CONCURRENCY: '4' })),
    ]);
    fixtures.push(...started);
    const primary = await sentinel.primary();
    let promotedAfter = 0;
    const result = await deliverThroughAFault({
      receivers: started.slice(0, PROCESSES),
      count: COUNT,
      faultAfter: Math.floor(COUNT / 3),
      fault: async () => {
        const hungAt = performance.now();
        primary.pause();
        await sentinel.waitForPromotion(primary);
        promotedAfter = Math.round(performance.now() - hungAt);
      },
    });
    // The old primary wakes up and is turned into a replica of the new one.
    primary.resume();
    const woke = performance.now();
    const rerun = await expectEachRanOnce(started.slice(PROCESSES), COUNT, { ...result.faultWindow, woke });
    await sentinel.waitUntilReady();
    console.log(
      `sentinel: ${result.accepted} deliveries accepted; primary hung (SIGSTOP), replica promoted after ${promotedAfter} ms; longest refusal window ${result.longestRefusalMs} ms; refusals by reason ${JSON.stringify(result.refusedBy)}; run again: ${rerun.underWay} under way at the failover, ${rerun.atTheWaking} taken from the old primary as it woke`,
    );
    expect(result.accepted).toBe(COUNT);
  });
});
