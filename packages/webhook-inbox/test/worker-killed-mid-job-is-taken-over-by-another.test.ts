// A worker process dies with SIGKILL while its handlers run: once their locks expire, another worker
// takes the jobs over and completes each once. (The handler did start twice for those jobs, which is
// why the delivery id is given to handlers as an idempotency key.)
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { inboxQueuePrefix, jobIdFor } from '../src/index.js';
import { inBatches, postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { processWorldPerFile, startFixture } from './support/processes.js';
import { queueIsIdle } from './support/settled.js';

const world = processWorldPerFile();

describe('a worker killed mid-job', () => {
  it('loses its jobs to another worker, which completes each exactly once', async () => {
    const env = {
      REDIS_URL: world.redis.url,
      WEBHOOK_SECRET: SECRET,
      INBOX_QUEUE: 'takeover',
      LOCK_MS: '1000',
      STALLED_MS: '500',
    };
    const receiver = await startFixture('receiver.mjs', env);
    const doomed = await startFixture('worker.mjs', { ...env, WORK_MS: '600000', CONCURRENCY: '8' });
    world.fixtures.push(receiver, doomed);
    const deliveries = await Promise.all(Array.from({ length: 5 }, (_, i) => signedDelivery(70_000 + i)));
    const answers = await inBatches(deliveries, 5, (d) =>
      postDelivery(`http://127.0.0.1:${receiver.port}/webhooks/forms`, d),
    );
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    const ids = deliveries.map((d) => jobIdFor(d.body));
    await until('the first worker holds all five jobs', () =>
      ids.every((id) => doomed.messages.some((m) => m.type === 'started' && m.id === id)),
    );

    const survivor = await startFixture('worker.mjs', { ...env, WORK_MS: '0' });
    world.fixtures.push(survivor);
    // The doomed worker keeps renewing its locks: counted on one lock, two renewals (its time to
    // live going back up) span more than a lock period, in which the survivor took nothing.
    const locks = new Queue('takeover', {
      connection: { host: '127.0.0.1', port: world.redis.port },
      prefix: inboxQueuePrefix('takeover'),
    });
    const raw = new Redis(world.redis.port, '127.0.0.1');
    try {
      const lock = locks.toKey(`${ids[0]}:lock`);
      let renewals = 0;
      let last = Infinity;
      await until('two renewals of a lock the doomed worker holds', async () => {
        const ttl = await raw.pttl(lock);
        if (ttl > last) renewals++;
        last = ttl;
        return renewals >= 2;
      });
    } finally {
      raw.disconnect();
      await locks.close();
    }
    expect(survivor.messages.filter((m) => m.type === 'started')).toEqual([]);

    expect(await doomed.kill('SIGKILL')).toBe('SIGKILL');
    await until(
      'the survivor completes all five',
      () => ids.every((id) => survivor.messages.some((m) => m.type === 'done' && m.id === id)),
      { timeoutMs: 15_000 },
    );
    await queueIsIdle(world.redis.port, 'takeover');
    const done = survivor.messages.filter((m) => m.type === 'done') as Array<{ id: string }>;
    expect(done.map((m) => m.id).sort()).toEqual([...ids].sort());
    expect(doomed.messages.filter((m) => m.type === 'done')).toEqual([]);
    // Each was taken over once, by the stalled check after its lock expired: the LOCK_MS given
    // (the wait above is bounded by half the 30 s default lock), not a clock read by the test.
    const inspector = new Queue('takeover', {
      connection: { host: '127.0.0.1', port: world.redis.port },
      prefix: inboxQueuePrefix('takeover'),
    });
    try {
      const stalled = await Promise.all(ids.map(async (id) => (await inspector.getJob(id))?.stalledCounter));
      expect(stalled).toEqual(ids.map(() => 1));
    } finally {
      await inspector.close();
    }
  });
});
