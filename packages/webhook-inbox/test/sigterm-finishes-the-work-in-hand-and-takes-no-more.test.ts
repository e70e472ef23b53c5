// Graceful shutdown with closeOnSignals: on SIGTERM a worker fetches nothing new, finishes the jobs
// it holds and exits 0 (no job is run again afterwards); a receiver answers the requests it holds
// (even while Redis hangs: 503 at the enqueue deadline, never a reset connection) and exits 0.
import { describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { closeOnSignals, createInbox, createInboxWorker, jobIdFor } from '../src/index.js';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { processWorldPerFile, startFixture } from './support/processes.js';
import { stalledChecksRun } from './support/settled.js';

const world = processWorldPerFile();

describe('SIGTERM', () => {
  it('lets a worker finish the jobs in hand, fetch no more, and exit 0', async () => {
    const env = {
      REDIS_URL: world.redis.url,
      WEBHOOK_SECRET: SECRET,
      INBOX_QUEUE: 'sigterm-worker',
      LOCK_MS: '1000',
      STALLED_MS: '500',
    };
    const receiver = await startFixture('receiver.mjs', env);
    const leaving = await startFixture('worker.mjs', { ...env, WORK_MS: '1500', CONCURRENCY: '3' });
    world.fixtures.push(receiver, leaving);
    const url = `http://127.0.0.1:${receiver.port}/webhooks/forms`;
    const held = await Promise.all([1, 2, 3].map((i) => signedDelivery(90_000 + i)));
    for (const delivery of held) expect((await postDelivery(url, delivery)).status).toBe(202);
    await until('the worker holds three jobs', () => leaving.messages.filter((m) => m.type === 'started').length === 3);

    leaving.child.kill('SIGTERM');
    await leaving.waitFor((m) => m.type === 'log' && m.line.includes('taking no new work'));
    const late = await signedDelivery(90_099);
    expect((await postDelivery(url, late)).status).toBe(202);
    expect(await leaving.exited).toBe(0);
    const doneByLeaving = leaving.messages.filter((m) => m.type === 'done').map((m) => (m as { id: string }).id);
    expect(doneByLeaving.sort()).toEqual(held.map((d) => jobIdFor(d.body)).sort());
    expect(leaving.messages.some((m) => m.type === 'started' && m.id === jobIdFor(late.body))).toBe(false);

    // The next worker gets the late delivery only: nothing the first one finished runs again, even
    // after a lock period and several stalled checks (counted: three runs of the check).
    const next = await startFixture('worker.mjs', { ...env, LOCK_MS: '1000', STALLED_MS: '500' });
    world.fixtures.push(next);
    await until('the late delivery runs', () => next.messages.some((m) => m.type === 'done'));
    await stalledChecksRun(world.redis.port, 'sigterm-worker', 3);
    expect(next.messages.filter((m) => m.type === 'started').map((m) => (m as { id: string }).id)).toEqual([
      jobIdFor(late.body),
    ]);
  });

  it('lets a receiver answer the requests it holds, then exit 0', async () => {
    // An idle connection may stay open ten minutes: the receiver exits within the test only if its
    // shutdown closes the answered connection itself.
    const env = {
      REDIS_URL: world.redis.url,
      WEBHOOK_SECRET: SECRET,
      INBOX_QUEUE: 'sigterm-receiver',
      KEEP_ALIVE_MS: '600000',
    };
    const receiver = await startFixture('receiver.mjs', env);
    world.fixtures.push(receiver);
    const url = `http://127.0.0.1:${receiver.port}/webhooks/forms`;
    // Redis hangs (SIGSTOP): the request is held inside the enqueue when SIGTERM arrives.
    const redisPid = (await import('node:child_process'))
      .execFileSync('redis-cli', ['-p', String(world.redis.port), 'info', 'server'])
      .toString()
      .match(/process_id:(\d+)/)![1]!;
    process.kill(Number(redisPid), 'SIGSTOP');
    try {
      const pending = postDelivery(url, await signedDelivery(91_000));
      await receiver.waitFor((m) => m.type === 'request');
      receiver.child.kill('SIGTERM');
      // Answered while Redis is still stopped, by the enqueue deadline.
      const answer = await pending;
      expect(answer).toMatchObject({ status: 503, body: { error: 'enqueue_timeout' } });
    } finally {
      process.kill(Number(redisPid), 'SIGCONT');
    }
    // The answered connection is closed by the shutdown, not left to the ten-minute keep-alive.
    expect(await receiver.exited).toBe(0);
  });

  it('closes a worker and an inbox at once while Redis is down, instead of waiting for it', async () => {
    const worker = createInboxWorker({
      connection: world.redis.url,
      queue: 'sigterm-outage',
      handler: () => {},
      onRedisError: () => {},
    });
    const inbox = createInbox({
      connection: world.redis.url,
      secret: SECRET,
      queue: 'sigterm-outage',
      onRedisError: () => {},
    });
    await until('both connected', async () => (await worker.health()).ok && (await inbox.health()).ok);
    await world.redis.stop('SIGKILL');
    try {
      await until('the outage noticed', async () => !(await worker.health()).ok);
      // Redis comes back only once both have closed: a close that waits for Redis never ends.
      await Promise.all([worker.close(), inbox.close()]);
    } finally {
      await world.redis.start();
    }
  });

  it('runs the steps in order once, and gives up at the deadline or on a second signal', async () => {
    const log: string[] = [];
    const order: string[] = [];
    const dispose = closeOnSignals(
      [
        () => void order.push('server'),
        { close: async () => void order.push('inbox') },
        () => new Promise(() => order.push('worker (never finishes)')),
      ],
      { signals: ['SIGUSR2'], timeoutMs: 200, exit: false, log: (line) => log.push(line) },
    );
    try {
      process.emit('SIGUSR2', 'SIGUSR2');
      await until('the deadline', () => log.some((l) => l.includes('longer than 200 ms')));
      expect(order).toEqual(['server', 'inbox', 'worker (never finishes)']);
      process.emit('SIGUSR2', 'SIGUSR2');
      expect(log.at(-1)).toMatch(/SIGUSR2 again: exiting now/);
      expect(order).toHaveLength(3); // the steps ran once
    } finally {
      dispose();
    }
    expect(process.listenerCount('SIGUSR2')).toBe(0);
  });
});
