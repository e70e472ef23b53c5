// RedisReplayStore: across separate connections (as separate receiver processes have), exactly one
// concurrent claim of a key succeeds; a key is claimable again after its time to live or a release;
// keys in Redis are hashes, not signatures; and an unreachable Redis is an error, never a "yes".
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWebhookVerifyError, parseWebhook } from '@forms-api/webhook-verify';
import { until } from '@forms-api/test-support';
import { InboxError, RedisReplayStore } from '../src/index.js';
import { SECRET, signedDelivery } from './support/deliveries.js';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';

let redis: RedisServer;
const stores: RedisReplayStore[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis?.close();
});

async function store(): Promise<RedisReplayStore> {
  const created = new RedisReplayStore({ connection: redis.url, onRedisError: () => {} });
  stores.push(created);
  await until('the store to connect', async () => {
    try {
      await created.claim('warm-up', 1);
      return true;
    } catch {
      return false;
    }
  });
  return created;
}

describe('RedisReplayStore', () => {
  it('lets exactly one of many concurrent claims through, per key', async () => {
    const [a, b] = [await store(), await store()];
    const keys = Array.from({ length: 200 }, (_, i) => `sha256=${i.toString(16).padStart(64, '0')}`);
    const outcomes = await Promise.all(
      keys.map((key) =>
        Promise.all([a.claim(key, 60_000), b.claim(key, 60_000), a.claim(key, 60_000), b.claim(key, 60_000)]),
      ),
    );
    for (const [i, results] of outcomes.entries()) expect(results.filter(Boolean), keys[i]).toHaveLength(1);
  });

  it('is the replay guard webhook-verify needs: two instances given the same captured request accept it once', async () => {
    const [first, second] = [await store(), await store()];
    const deliveries = await Promise.all(Array.from({ length: 50 }, (_, i) => signedDelivery(60_000 + i)));
    const outcomes = await Promise.all(
      deliveries.map((d) =>
        Promise.allSettled([
          parseWebhook(SECRET, d.body, d.signature, { replayStore: first }),
          parseWebhook(SECRET, d.body, d.signature, { replayStore: second }),
        ]),
      ),
    );
    for (const [i, pair] of outcomes.entries()) {
      expect(
        pair.filter((o) => o.status === 'fulfilled'),
        `delivery ${i}`,
      ).toHaveLength(1);
      const refused = pair.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
      expect(isWebhookVerifyError(refused.reason)).toBe(true);
      expect(refused.reason.kind).toBe('replayed');
    }
  });

  it('frees a key after its time to live, or at once on release', async () => {
    const s = await store();
    expect(await s.claim('sha256=ttl', 150)).toBe(true);
    expect(await s.claim('sha256=ttl', 150)).toBe(false);
    // Claimed again once Redis has let the key expire (a claim that succeeds ends the wait).
    await until('the key to expire and be claimed again', () => s.claim('sha256=ttl', 150));
    expect(await s.claim('sha256=released', 60_000)).toBe(true);
    await s.release('sha256=released');
    expect(await s.claim('sha256=released', 60_000)).toBe(true);
  });

  it('stores a hash of the key, not the signature itself', async () => {
    const s = await store();
    const signature = `sha256=${'ab'.repeat(32)}`;
    await s.claim(signature, 60_000);
    const admin = new Redis(redis.port, '127.0.0.1');
    try {
      const keys = await admin.keys('forms-webhook:replay:*');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.some((k) => k.includes('abab'))).toBe(false);
    } finally {
      admin.disconnect();
    }
  });

  it('refuses a bad time to live, and fails (never answers yes) while Redis is down', async () => {
    const s = await store();
    await expect(s.claim('k', 0)).rejects.toMatchObject({ kind: 'invalid_option' });
    await redis.stop('SIGKILL');
    try {
      // Redis comes back only after the claim has answered: it must give up on its own.
      const error = await s.claim('sha256=during-outage', 60_000).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InboxError);
      expect(error).toMatchObject({
        kind: 'redis_unavailable',
        message: expect.stringMatching(/refuse the request \(503\)/),
      });
    } finally {
      await redis.start();
    }
  });
});
