// CI saw a delivery answered `redis_unavailable` while Redis was a read-only replica: after a
// READONLY refusal the client reconnects, and a command caught by that reconnect fails with
// "Connection is closed", not READONLY. Until a write succeeds again the client is known to face
// a replica, so such a failure is `redis_read_only` too; after a successful write it is not.
// CI later saw a worker's health answer `redis_unavailable` while Redis was a replica: the
// READONLY had met one of BullMQ's own commands, not the probe, so the client reconnected
// without being known to face a replica. Any command's READONLY now marks it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { until } from '@forms-api/test-support';
import { createRedisClient, writableWithin, writeRefused } from '../src/connection.js';
import { isInboxError } from '../src/errors.js';

let primary: RedisServer;
let other: RedisServer;
let client: Redis;

async function call(server: RedisServer, ...args: [string, ...string[]]) {
  const admin = new Redis(server.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    return await admin.call(...args);
  } finally {
    admin.disconnect();
  }
}

beforeAll(async () => {
  [primary, other] = await Promise.all([startRedisServer(), startRedisServer()]);
  client = createRedisClient(primary.url, 'receiver');
  await until('the client to connect', () => client.status === 'ready');
});

afterAll(async () => {
  client?.disconnect();
  await Promise.all([primary?.close(), other?.close()]);
});

describe('a command lost while the client faces a replica', () => {
  it('is redis_read_only until a write succeeds again, then redis_unavailable', async () => {
    const lost = new Error('Connection is closed.');
    expect(writeRefused(client, lost).kind).toBe('redis_unavailable');

    await call(primary, 'REPLICAOF', '127.0.0.1', String(other.port));
    const refused = await writableWithin(client, 'probe', 2_000).catch((error: unknown) => error);
    expect(isInboxError(refused) && refused.kind).toBe('redis_read_only');
    expect(writeRefused(client, lost).kind).toBe('redis_read_only');

    await call(primary, 'REPLICAOF', 'NO', 'ONE');
    await until('a write to succeed again', () =>
      writableWithin(client, 'probe', 2_000).then(
        () => true,
        () => false,
      ),
    );
    expect(writeRefused(client, lost).kind).toBe('redis_unavailable');
  });

  it("is named by the health probe after a READONLY met by any other command (BullMQ's own)", async () => {
    const worker = createRedisClient(primary.url, 'worker');
    try {
      await until('the worker client to connect', () => worker.status === 'ready');
      await call(primary, 'REPLICAOF', '127.0.0.1', String(other.port));
      // Not through the probe: a command of the queue's own meets the replica and the client reconnects.
      const reconnecting = new Promise((resolve) => worker.once('reconnecting', resolve));
      await expect(worker.set('job-lock', '1')).rejects.toThrow(/^READONLY/);
      await reconnecting;
      const probed = await writableWithin(worker, 'probe', 2_000).catch((error: unknown) => error);
      expect(isInboxError(probed) && probed.kind).toBe('redis_read_only');
    } finally {
      worker.disconnect();
      await call(primary, 'REPLICAOF', 'NO', 'ONE');
    }
  });
});
