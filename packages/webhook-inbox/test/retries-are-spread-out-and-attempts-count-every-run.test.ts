// Deliveries that failed together (the CRM the handler calls was down) must not all come back at
// the same moment: each retry delay has a random share (jitter). And `retry.attempts` counts every
// run, the first included, unlike the client's `retries`: an option named like the client's is
// refused with the difference spelled out, not ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { createInbox } from '../src/index.js';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const DELIVERIES = 30;
const BACKOFF_MS = 10_000;
let world: InboxWorld;

beforeAll(async () => {
  world = await startInboxWorld({
    queue: 'jitter',
    inbox: { retry: { attempts: 2, backoffMs: BACKOFF_MS } },
    worker: {
      concurrency: DELIVERIES,
      handler: () => {
        throw new Error('the CRM is down');
      },
      onFailure: () => {},
    },
  });
});

afterAll(() => world?.close());

describe('retries', () => {
  it('of deliveries that failed together are drawn over the backoff, never under half of it', async () => {
    const deliveries = await Promise.all(Array.from({ length: DELIVERIES }, (_, i) => signedDelivery(700 + i)));
    await Promise.all(
      deliveries.map(async (delivery) => expect((await postDelivery(world.url, delivery)).status).toBe(202)),
    );
    // Each failed first attempt waits in the delayed set; BullMQ records the delay it drew on the job
    // (read there rather than timed, so a loaded machine cannot blur it).
    await until(
      'every delivery waiting for its retry',
      async () => (await world.queue.getDelayedCount()) === DELIVERIES,
      { timeoutMs: 20_000 },
    );
    const delays = (await world.queue.getDelayed(0, -1)).map((job) => job.delay);
    expect(delays).toHaveLength(DELIVERIES);
    // Without jitter every delay is the full backoff; with 0.5 each is drawn from [5 s, 10 s].
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(BACKOFF_MS / 2);
      expect(delay).toBeLessThanOrEqual(BACKOFF_MS);
    }
    expect(new Set(delays).size).toBeGreaterThanOrEqual(DELIVERIES / 2);
    expect(Math.max(...delays) - Math.min(...delays)).toBeGreaterThanOrEqual(BACKOFF_MS / 5);
  });

  it('count every run: an option named like the client`s retries is refused with the difference', () => {
    const make = (retry: object) => () =>
      createInbox({ connection: world.redis.url, secret: SECRET, retry: retry as never });
    expect(make({ retries: 3 })).toThrow(
      '`retry.retries` is not an option of retry. `retry.attempts` counts every run, the first included: use retries + 1 (for example `attempts: 4` for 3 retries).',
    );
    expect(make({ maxRetries: 3 })).toThrow(
      /`retry.maxRetries` is not an option of retry. `retry.attempts` counts every run/,
    );
    expect(make({ attemps: 3 })).toThrow(
      '`retry.attemps` is not an option of retry. Did you mean `retry.attempts`? The options of retry are attempts, backoffMs, jitter.',
    );
    expect(make({ jitter: 2 })).toThrow('`retry.jitter` must be a number from 0 (no randomness) to 1 (got 2).');
  });
});
