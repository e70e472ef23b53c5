// The deduplication window is the inbox's, not the job's: with completed jobs removed at once, a
// copy of a delivery arriving later inside `dedupeWindowMs` still makes no new job; once the window
// has passed, the same bytes are a new delivery (the scheme signs no timestamp: bytes are identity).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { jobIdFor } from '../src/index.js';
import { postDelivery, signedDelivery } from './support/deliveries.js';
import { queueIsIdle, windowEnds } from './support/settled.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const WINDOW_MS = 1_500;
let world: InboxWorld;
const runs: string[] = [];

beforeAll(async () => {
  world = await startInboxWorld({
    queue: 'window',
    inbox: { dedupeWindowMs: WINDOW_MS, retention: { completed: { ageSeconds: 1, count: 0 } } },
    worker: { handler: (d) => void runs.push(d.id) },
  });
});

afterAll(() => world?.close());

describe('the deduplication window', () => {
  it('outlives the job, and ends', async () => {
    const delivery = await signedDelivery(123_456);
    const id = jobIdFor(delivery.body);
    expect((await postDelivery(world.url, delivery)).status).toBe(202);
    await until('the first run', () => runs.length === 1);
    await until('the completed job to be removed', async () => (await world.queue.getJob(id)) === undefined);

    // Inside the window: the job is gone, the copy is still recognised.
    expect(await postDelivery(world.url, delivery)).toMatchObject({ status: 202, body: { id } });
    await queueIsIdle(world.redis.port, 'window');
    expect(runs).toEqual([id]);
    expect(await world.queue.getJob(id)).toBeUndefined();

    // After the window: the same bytes are a new delivery.
    await windowEnds(world.redis.port, 'window', id);
    expect(await postDelivery(world.url, delivery)).toMatchObject({ status: 202, body: { id } });
    await until('a second run', () => runs.length === 2);
    expect(runs).toEqual([id, id]);
  });
});
