// The inbox on a real 3-master Redis Cluster (tools/redis-server, loopback): every key of the queue,
// BullMQ's and the inbox's own, shares the hash tag of inboxQueuePrefix(), so no command is refused
// CROSSSLOT; and when the master serving the queue is killed and its replica promoted, receivers
// and workers follow the slot to the new master: every delivery sent by a sender that posts again
// after a 503 runs, and runs once (acknowledged once a replica has it: waitForReplicas 1), but for
// a run under way when the master died, which the README allows to run again. The refusal window
// is printed, not asserted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from 'ioredis';
import { startRedisCluster, type RedisCluster } from '@forms-api/redis-server';
import { runInboxCli } from '../src/cli.js';
import { createRedisClient, describeRedisError } from '../src/connection.js';
import { inboxQueuePrefix } from '../src/index.js';
import { SECRET } from './support/deliveries.js';
import { killAll, startFixture, type Fixture } from './support/processes.js';
import { deliverThroughAFault, expectEachRanOnce } from './support/through-a-fault.js';

const QUEUE = 'on-cluster';
// `pnpm bench` runs this file with 5,000 deliveries through 3 receivers and 3 workers.
const COUNT = Number(process.env.TOPOLOGY_DELIVERIES ?? 300);
const PROCESSES = Number(process.env.TOPOLOGY_PROCESSES ?? 2);
let cluster: RedisCluster;
const fixtures: Fixture[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
}, 60_000);

afterAll(async () => {
  await killAll(fixtures);
  await cluster?.close();
});

describe('the inbox on a Redis Cluster', () => {
  it('keeps every key of a queue in one slot and takes deliveries through a master killed and its replica promoted', async () => {
    const env = {
      REDIS_URL: cluster.seeds.map((seed) => `redis://${seed.host}:${seed.port}`).join(','),
      REDIS_CLUSTER: '1',
      WEBHOOK_SECRET: SECRET,
      INBOX_QUEUE: QUEUE,
      // A delivery is acknowledged once a replica has it, so the killed master takes none with it.
      WAIT_REPLICAS: '1',
    };
    const started = await Promise.all([
      ...Array.from({ length: PROCESSES }, () => startFixture('receiver.mjs', env)),
      ...Array.from({ length: PROCESSES }, () => startFixture('worker.mjs', { ...env, CONCURRENCY: '4' })),
    ]);
    fixtures.push(...started);
    const receivers = started.slice(0, PROCESSES);
    const workers = started.slice(PROCESSES);

    const master = await cluster.masterFor(inboxQueuePrefix(QUEUE));
    let failedOver = 0;
    const result = await deliverThroughAFault({
      receivers,
      count: COUNT,
      faultAfter: Math.floor(COUNT / 3),
      fault: async () => {
        const killedAt = performance.now();
        await master.stop('SIGKILL');
        await cluster.waitForFailover(master);
        failedOver = Math.round(performance.now() - killedAt);
        // Back as a replica of the promoted one, so deliveries are confirmed by a replica again.
        await master.start();
        await cluster.waitUntilReady();
      },
    });
    const rerun = await expectEachRanOnce(workers, COUNT, result.faultWindow);
    console.log(
      `cluster: ${result.accepted} deliveries accepted; master killed, replica promoted after ${failedOver} ms; longest refusal window ${result.longestRefusalMs} ms; refusals by reason ${JSON.stringify(result.refusedBy)}; ${rerun.underWay} run again, each under way at the failover`,
    );
    expect(result.accepted).toBe(COUNT);

    // Nothing of the queue lives outside the slot of its hash tag: no key of it on another master.
    const client = new Cluster(cluster.seeds as { host: string; port: number }[]);
    try {
      const owner = await cluster.masterFor(inboxQueuePrefix(QUEUE));
      for (const other of (await cluster.masters()).filter((m) => m.port !== owner.port)) {
        const node = client.nodes('master').find((n) => n.options.port === other.port);
        expect(node && (await node.keys(`*${QUEUE}*`))).toEqual([]);
      }
      const node = client.nodes('master').find((n) => n.options.port === owner.port)!;
      const keys = await node.keys(`${inboxQueuePrefix(QUEUE)}*`);
      expect(keys.some((key) => key.includes(':de:'))).toBe(true);
      expect(keys.some((key) => key.endsWith(':kept-bodies'))).toBe(true);
    } finally {
      client.disconnect();
    }

    // The CLI reads the same queue on the cluster.
    let out = '';
    const code = await runInboxCli(['stats', '--json', '--cluster', '--redis', env.REDIS_URL, '--queue', QUEUE], {
      out: (line) => (out += line),
      err: (line) => (out += line),
    });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ queue: QUEUE, counts: { completed: COUNT, failed: 0 } });
  });

  it('names a command refused CROSSSLOT as such, not as an unreachable Redis', async () => {
    const client = createRedisClient({ cluster: cluster.seeds }, 'oneshot');
    try {
      const refused = await client.mset('{a}one', '1', '{b}two', '2').catch((error: Error) => error);
      expect(refused).toBeInstanceOf(Error);
      const said = describeRedisError(client, refused as Error);
      expect(said).toMatch(
        /^Redis Cluster at cluster 127\.0\.0\.1:\d+.* refused a command whose keys are in different hash slots \(CROSSSLOT/,
      );
      expect(said).toMatch(/inboxQueuePrefix/);
      expect(said).not.toMatch(/unreachable/);
    } finally {
      client.disconnect();
    }
  });
});
