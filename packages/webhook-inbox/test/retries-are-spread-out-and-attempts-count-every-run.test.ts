// Deliveries that failed together (the CRM the handler calls was down) must not all come back at
// the same moment: each retry delay has a random share (jitter). And `retry.attempts` counts every
// run, the first included, unlike the client's `retries`: an option named like the client's is
// refused with the difference spelled out, not ignored.
import { createServer, type Server } from 'node:http';
import { Queue } from 'bullmq';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { inboxMiddleware } from '../src/adapters/node.js';
import { createInbox, createInboxWorker, type Inbox, type InboxWorker } from '../src/index.js';
import { eventually, postDelivery, SECRET, signedDelivery } from './support/deliveries.js';

const QUEUE = 'jitter';
const DELIVERIES = 30;
const BACKOFF_MS = 10_000;
let redis: RedisServer;
let inbox: Inbox;
let worker: InboxWorker;
let server: Server;
let url: string;

beforeAll(async () => {
  redis = await startRedisServer();
  inbox = createInbox({
    connection: redis.url,
    secret: SECRET,
    queue: QUEUE,
    retry: { attempts: 2, backoffMs: BACKOFF_MS },
  });
  worker = createInboxWorker({
    connection: redis.url,
    queue: QUEUE,
    concurrency: DELIVERIES,
    handler: () => {
      throw new Error('the CRM is down');
    },
    onFailure: () => {},
  });
  server = createServer(inboxMiddleware(inbox));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  await eventually('the inbox to connect', async () => (await inbox.health()).ok);
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await worker?.close();
  await inbox?.close();
  await redis?.close();
});

describe('retries', () => {
  it('of deliveries that failed together are drawn over the backoff, never under half of it', async () => {
    const deliveries = await Promise.all(Array.from({ length: DELIVERIES }, (_, i) => signedDelivery(700 + i)));
    await Promise.all(deliveries.map(async (delivery) => expect((await postDelivery(url, delivery)).status).toBe(202)));
    // Each failed first attempt waits in the delayed set; BullMQ records the delay it drew on the job
    // (read there rather than timed, so a loaded machine cannot blur it).
    const queue = new Queue(QUEUE, { connection: { host: '127.0.0.1', port: redis.port } });
    try {
      await eventually(
        'every delivery waiting for its retry',
        async () => (await queue.getDelayedCount()) === DELIVERIES,
        20_000,
      );
      const delays = (await queue.getDelayed(0, -1)).map((job) => job.delay);
      expect(delays).toHaveLength(DELIVERIES);
      // Without jitter every delay is the full backoff; with 0.5 each is drawn from [5 s, 10 s].
      for (const delay of delays) {
        expect(delay).toBeGreaterThanOrEqual(BACKOFF_MS / 2);
        expect(delay).toBeLessThanOrEqual(BACKOFF_MS);
      }
      expect(new Set(delays).size).toBeGreaterThanOrEqual(DELIVERIES / 2);
      expect(Math.max(...delays) - Math.min(...delays)).toBeGreaterThanOrEqual(BACKOFF_MS / 5);
    } finally {
      await queue.close();
    }
  });

  it('count every run: an option named like the client`s retries is refused with the difference', () => {
    const make = (retry: object) => () => createInbox({ connection: redis.url, secret: SECRET, retry: retry as never });
    expect(make({ retries: 3 })).toThrow(
      '`retry.retries` is not an inbox option. `retry.attempts` counts every run, the first included: use retries + 1 (for example `attempts: 4` for 3 retries).',
    );
    expect(make({ maxRetries: 3 })).toThrow(
      /`retry.maxRetries` is not an inbox option. `retry.attempts` counts every run/,
    );
    expect(make({ attemps: 3 })).toThrow(
      '`retry.attemps` is not an inbox option. The retry options are attempts, backoffMs, jitter.',
    );
    expect(make({ jitter: 2 })).toThrow('`retry.jitter` must be a number from 0 (no randomness) to 1 (got 2).');
  });
});
