// The deduplication window is the inbox's, not the job's: with completed jobs removed at once, a
// copy of a delivery arriving later inside `dedupeWindowMs` still makes no new job; once the window
// has passed, the same bytes are a new delivery (the scheme signs no timestamp: bytes are identity).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { inboxMiddleware } from '../src/adapters/node.js';
import { createInbox, createInboxWorker, jobIdFor, type Inbox, type InboxWorker } from '../src/index.js';
import { eventually, postDelivery, SECRET, signedDelivery, sleep } from './support/deliveries.js';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';

const QUEUE = 'window';
const WINDOW_MS = 1_500;
let redis: RedisServer;
let inbox: Inbox;
let worker: InboxWorker;
let server: Server;
let queue: Queue;
let url: string;
const runs: string[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  inbox = createInbox({
    connection: redis.url,
    secret: SECRET,
    queue: QUEUE,
    dedupeWindowMs: WINDOW_MS,
    retention: { completed: { ageSeconds: 1, count: 0 } },
  });
  worker = createInboxWorker({ connection: redis.url, queue: QUEUE, handler: (d) => void runs.push(d.id) });
  queue = new Queue(QUEUE, { connection: { host: '127.0.0.1', port: redis.port } });
  server = createServer(inboxMiddleware(inbox));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  await eventually('the inbox to connect', async () => (await inbox.health()).ok);
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await worker?.close();
  await inbox?.close();
  await queue?.close();
  await redis?.close();
});

describe('the deduplication window', () => {
  it('outlives the job, and ends', async () => {
    const delivery = await signedDelivery(123_456);
    const id = jobIdFor(delivery.body);
    expect((await postDelivery(url, delivery)).status).toBe(202);
    await eventually('the first run', () => runs.length === 1);
    await eventually('the completed job to be removed', async () => (await queue.getJob(id)) === undefined);

    // Inside the window: the job is gone, the copy is still recognised.
    expect(await postDelivery(url, delivery)).toMatchObject({ status: 202, body: { id } });
    await sleep(500);
    expect(runs).toEqual([id]);
    expect(await queue.getJob(id)).toBeUndefined();

    // After the window: the same bytes are a new delivery.
    await sleep(WINDOW_MS);
    expect(await postDelivery(url, delivery)).toMatchObject({ status: 202, body: { id } });
    await eventually('a second run', () => runs.length === 2);
    expect(runs).toEqual([id, id]);
  });
});
