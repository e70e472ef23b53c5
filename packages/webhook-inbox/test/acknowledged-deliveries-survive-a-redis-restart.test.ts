// Redis with append-only persistence is restarted after deliveries were acknowledged: cleanly
// (SIGTERM, with the common appendfsync everysec) and by a crash (SIGKILL, with appendfsync always,
// the setting that makes Redis fsync before it answers). Every delivery answered 202 is still there
// afterwards and is processed exactly once.
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { jobIdFor } from '../src/index.js';
import { inBatches, postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { queueIsIdle } from './support/settled.js';
import { killAll, startFixture, type Fixture } from './support/processes.js';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';

let redis: RedisServer | undefined;
const fixtures: Fixture[] = [];

afterEach(async () => {
  await killAll(fixtures.splice(0));
  await redis?.close();
  redis = undefined;
});

describe('acknowledged deliveries and a Redis restart', () => {
  it.each([
    { how: 'a clean restart (SIGTERM), appendfsync everysec', signal: 'SIGTERM', appendfsync: 'everysec' },
    { how: 'a crash (SIGKILL), appendfsync always', signal: 'SIGKILL', appendfsync: 'always' },
  ] as const)('keeps every acknowledged delivery through $how', async ({ signal, appendfsync }) => {
    redis = await startRedisServer({ appendonly: true, appendfsync });
    const env = { REDIS_URL: redis.url, WEBHOOK_SECRET: SECRET, INBOX_QUEUE: 'restart' };
    const receiver = await startFixture('receiver.mjs', env);
    fixtures.push(receiver);
    const deliveries = await Promise.all(Array.from({ length: 300 }, (_, i) => signedDelivery(80_000 + i)));
    const answers = await inBatches(deliveries, 16, (d) =>
      postDelivery(`http://127.0.0.1:${receiver.port}/webhooks/forms`, d),
    );
    expect(answers.every((a) => a.status === 202)).toBe(true);

    // No worker ran yet: all 300 are only in Redis when it goes down, straight after the last 202.
    await redis.stop(signal);
    await redis.start();

    const worker = await startFixture('worker.mjs', { ...env, CONCURRENCY: '8' });
    fixtures.push(worker);
    const ids = new Set(deliveries.map((d) => jobIdFor(d.body)));
    const done = () => worker.messages.filter((m) => m.type === 'done') as Array<{ id: string }>;
    await until('all 300 processed after the restart', () => done().length >= ids.size);
    await queueIsIdle(redis.port, 'restart');
    expect(done()).toHaveLength(ids.size);
    expect(new Set(done().map((m) => m.id))).toEqual(ids);
  });
});
