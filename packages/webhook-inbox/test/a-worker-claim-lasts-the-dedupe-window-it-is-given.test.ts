// The worker claims a submission as it runs a job whose receiver died before claiming it: that
// claim lasts the worker's `dedupeWindowMs` (the inbox's), not a fixed 7 days, so it neither
// outlives nor ends before the window the receivers and the reconciler keep.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { storeDelivery } from '../src/delivery.js';
import { DELIVERY_JOB_NAME } from '../src/policy.js';
import { inboxQueuePrefix } from '../src/queue-keys.js';
import { deliveryBody, SECRET } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';
import { sign } from '@forms-api/webhook-verify';

const QUEUE = 'worker-claim-window';
const WINDOW_MS = 5_000;
const ran: string[] = [];
let world: InboxWorld;

beforeAll(async () => {
  world = await startInboxWorld({
    queue: QUEUE,
    inbox: { dedupeWindowMs: WINDOW_MS },
    worker: { dedupeWindowMs: WINDOW_MS, secret: SECRET, handler: (delivery) => void ran.push(delivery.id) },
  });
});

afterAll(async () => {
  await world?.close();
});

it('claims for the window it was given, and refuses one that is not a positive whole number', async () => {
  // Stored as a receiver stores it, never claimed: the receiver died in between.
  const body = deliveryBody(7001);
  const delivery = { rawBody: new TextEncoder().encode(body), signature: await sign(SECRET, body), headers: {} };
  const signed = { ...delivery, headers: { 'x-webhook-signature': delivery.signature } };
  await world.queue.add(DELIVERY_JOB_NAME, storeDelivery(signed, Date.now()), { jobId: 'wh-unclaimed' });
  await until('the job to run', () => ran.includes('wh-unclaimed'));
  const key = `${inboxQueuePrefix(QUEUE)}:submission:11:7001`;
  expect(await world.raw.get(key)).toBe('wh-unclaimed');
  const ttl = await world.raw.pttl(key);
  expect(ttl).toBeGreaterThan(0);
  expect(ttl).toBeLessThanOrEqual(WINDOW_MS);

  expect(() => world.startWorker({ dedupeWindowMs: 0, handler: () => {} })).toThrow(/dedupeWindowMs/);
});
