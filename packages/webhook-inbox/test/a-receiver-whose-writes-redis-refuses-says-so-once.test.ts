// Red team finding (#29): a receiver whose every enqueue Redis refused while the connection stayed
// up (there CROSSSLOT on a Cluster; here out of memory) answered 503 and logged nothing, since
// ioredis emits no error for a refused command. Now the first refusal of an outage is told once,
// naming what Redis said; a stored delivery ends the outage, and the next refusal is told again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postDelivery, signedDelivery } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

let world: InboxWorld;
const told: Error[] = [];

beforeAll(async () => {
  world = await startInboxWorld({ queue: 'refusing', inbox: { onRedisError: (error) => told.push(error) } });
});
afterAll(async () => {
  await world?.close();
});

describe('a receiver whose writes Redis refuses', () => {
  it('tells onRedisError once per outage, with what Redis said, not once per delivery', async () => {
    await world.raw.config('SET', 'maxmemory', '1');
    for (let i = 0; i < 5; i++) {
      const answer = await postDelivery(world.url, await signedDelivery(i + 1));
      expect(answer).toMatchObject({ status: 503, body: { error: 'redis_unavailable' } });
    }
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toMatch(/OOM/);

    await world.raw.config('SET', 'maxmemory', '0');
    expect((await postDelivery(world.url, await signedDelivery(10))).status).toBe(202);
    await world.raw.config('SET', 'maxmemory', '1');
    expect((await postDelivery(world.url, await signedDelivery(11))).status).toBe(503);
    expect(told).toHaveLength(2);
    await world.raw.config('SET', 'maxmemory', '0');
  });
});
