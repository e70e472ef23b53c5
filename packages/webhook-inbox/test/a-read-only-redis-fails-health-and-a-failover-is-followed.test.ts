// Redis demoted to a replica, as after a failover, answers PING but refuses every write: the
// receivers' and workers' health checks must fail (so a load balancer stops sending), every
// delivery is answered 503, never 202; once the address leads to a primary again (here a TCP
// switch standing for DNS, a proxy or Sentinel), the open connections, which would otherwise stay
// on the replica for ever, reconnect on READONLY and deliveries flow again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { until } from '@forms-api/test-support';
import { postDelivery, SECRET, signedDelivery, type Posted } from './support/deliveries.js';
import { processWorldPerFile, startFixture, type Fixture } from './support/processes.js';
import { startTcpSwitch, type TcpSwitch } from './support/tcp-switch.js';

const world = processWorldPerFile();
let other: RedisServer;
let tcpSwitch: TcpSwitch;
let receiver: Fixture;
let worker: Fixture;
let url: string;

const healthOf = async (port: number) => {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`);
  return {
    status: response.status,
    body: (await response.json()) as { status: string; reason?: string; message?: string },
  };
};
const admin = (server: RedisServer) =>
  new Redis(server.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
async function command(server: RedisServer, ...args: [string, ...string[]]) {
  const client = admin(server);
  try {
    return await client.call(...args);
  } finally {
    client.disconnect();
  }
}

beforeAll(async () => {
  other = await startRedisServer();
  tcpSwitch = await startTcpSwitch(world.redis.port);
  const env = { REDIS_URL: `redis://127.0.0.1:${tcpSwitch.port}`, WEBHOOK_SECRET: SECRET, INBOX_QUEUE: 'failover' };
  [receiver, worker] = await Promise.all([
    startFixture('receiver.mjs', env),
    startFixture('worker.mjs', { ...env, HEALTH: '1', CONCURRENCY: '1' }),
  ]);
  world.fixtures.push(receiver, worker);
  url = `http://127.0.0.1:${receiver.port}/webhooks/forms`;
});

afterAll(async () => {
  await tcpSwitch?.close();
  await other?.close();
});

describe('Redis that takes no writes', () => {
  it('fails both health checks and answers every delivery 503 while Redis is a replica, and recovers when it is a primary again', async () => {
    const first = await signedDelivery(1);
    expect((await postDelivery(url, first)).status).toBe(202);
    await worker.waitFor((m) => m.type === 'done' && m.submissionId === 1);
    expect((await healthOf(receiver.port!)).status).toBe(200);
    expect((await healthOf(worker.port!)).status).toBe(200);

    // Demoted: a replica of the other server, still answering PING on the same address.
    await command(world.redis, 'REPLICAOF', '127.0.0.1', String(other.port));
    expect(await command(world.redis, 'PING')).toBe('PONG');
    for (const port of [receiver.port!, worker.port!]) {
      const health = await healthOf(port);
      expect(health).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'redis_read_only' } });
      expect(health.body.message).toMatch(/read-only replica/);
      // Health answers may be public: they never name where Redis is.
      expect(JSON.stringify(health.body)).not.toMatch(
        new RegExp(`127\\.0\\.0\\.1|${world.redis.port}|${tcpSwitch.port}`),
      );
    }
    const refused: Posted[] = [];
    for (let i = 0; i < 5; i++) refused.push(await postDelivery(url, await signedDelivery(100 + i)));
    for (const answer of refused) {
      expect(answer).toMatchObject({ status: 503, body: { error: 'redis_read_only' } });
      expect(JSON.stringify(answer.body)).not.toMatch(
        new RegExp(`127\\.0\\.0\\.1|${world.redis.port}|${tcpSwitch.port}`),
      );
    }

    // Promoted again: health and deliveries come back by themselves.
    await command(world.redis, 'REPLICAOF', 'NO', 'ONE');
    await until('the receiver to be healthy again', async () => (await healthOf(receiver.port!)).status === 200);
    await until('the worker to be healthy again', async () => (await healthOf(worker.port!)).status === 200);
    expect((await postDelivery(url, await signedDelivery(2))).status).toBe(202);
    await worker.waitFor((m) => m.type === 'done' && m.submissionId === 2);
  });

  it('follows a failover: connections left on the old primary reconnect on READONLY and reach the new one', async () => {
    // The other server becomes the primary, the address moves to it, the old primary follows it.
    tcpSwitch.target = other.port;
    await command(world.redis, 'REPLICAOF', '127.0.0.1', String(other.port));

    const answers: Posted[] = [];
    const delivery = await signedDelivery(3);
    await until(
      'a delivery accepted by the new primary',
      async () => {
        const answer = await postDelivery(url, delivery);
        answers.push(answer);
        return answer.status === 202;
      },
      { timeoutMs: 15_000 },
    );
    // Never a 202 without a job: until the reconnect, the replica's refusal is a 503.
    for (const answer of answers.slice(0, -1))
      expect(answer).toMatchObject({
        status: 503,
        body: { error: expect.stringMatching(/^redis_(read_only|unavailable)$/) },
      });
    await worker.waitFor((m) => m.type === 'done' && m.submissionId === 3, 15_000);
    const jobs = await command(other, 'KEYS', '{failover}:failover:wh-*');
    expect((jobs as string[]).length).toBeGreaterThan(0);
    expect((await healthOf(receiver.port!)).status).toBe(200);
    expect((await healthOf(worker.port!)).status).toBe(200);
  });
});
