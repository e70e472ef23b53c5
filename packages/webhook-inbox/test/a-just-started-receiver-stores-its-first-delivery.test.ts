// A receiver that has just started (a cold serverless function, a process's first request) has no
// Redis connection yet: its first delivery waits for the connection, briefly, and is stored rather
// than answered 503 (the service never retries, so a 503 there loses the submission). An inbox that
// was connected and lost Redis still answers 503 at once, and so does one whose first connection
// was refused (a wrong or absent Redis: known down, no reason to wait).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { createInbox, RedisReplayStore, type Inbox } from '../src/index.js';
import { inboxHandler } from '../src/adapters/fetch.js';
import { SECRET, signedDelivery } from './support/deliveries.js';

// "At once", without timing it: with an enqueue deadline longer than the test may run, an answer
// that waited for the deadline (or for Redis) never comes and the test times out.
const DEADLINE_BEYOND_THE_TEST = 600_000;

let redis: RedisServer;
const closers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(closers.map((c) => c.close()));
  await redis?.close();
});

const request = async (id: number) => {
  const d = await signedDelivery(id);
  return new Request('http://127.0.0.1/webhooks/forms', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-signature': d.signature },
    body: d.body,
  });
};

describe('a just-started receiver', () => {
  it('stores the delivery it gets before its connection is up (202, not 503)', async () => {
    const inbox: Inbox = createInbox({
      connection: redis.url,
      secret: SECRET,
      queue: 'cold-start',
      onRedisError: () => {},
    });
    closers.push(inbox);
    // Same tick as createInbox: the connection cannot be up yet.
    const response = await inboxHandler(inbox)(await request(7001));
    expect(response.status).toBe(202);
  });

  it('lets the first claim of a fresh replay store through', async () => {
    const store = new RedisReplayStore({ connection: redis.url, onRedisError: () => {} });
    closers.push(store);
    await expect(store.claim('sha256=first-claim', 60_000)).resolves.toBe(true);
    await expect(store.claim('sha256=first-claim', 60_000)).resolves.toBe(false);
  });

  it('still answers 503 at once once a connected inbox has lost Redis', async () => {
    const lost = await startRedisServer();
    const inbox = createInbox({
      connection: lost.url,
      secret: SECRET,
      queue: 'outage',
      enqueueTimeoutMs: DEADLINE_BEYOND_THE_TEST,
      onRedisError: () => {},
    });
    closers.push(inbox);
    const handler = inboxHandler(inbox);
    expect((await handler(await request(7002))).status).toBe(202);
    await lost.close();
    const response = await handler(await request(7003));
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toBe('redis_unavailable');
  });

  it('answers 503 at once when its first connection was refused (a wrong or absent Redis)', async () => {
    const gone = await startRedisServer();
    const url = gone.url;
    await gone.close();
    const inbox = createInbox({
      connection: url,
      secret: SECRET,
      queue: 'never-up',
      enqueueTimeoutMs: DEADLINE_BEYOND_THE_TEST,
      onRedisError: () => {},
    });
    closers.push(inbox);
    const handler = inboxHandler(inbox);
    // The first in the same tick as createInbox (still connecting), then after the refusal.
    for (const id of [7004, 7005, 7006]) {
      const response = await handler(await request(id));
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: string }).error).toBe('redis_unavailable');
    }
  });
});
