// A delivery's identity is its bytes, for the deduplication window. Two things the README promises
// and a red team broke: after the window, a copy is a new delivery that runs, even while the first
// job is still kept (a dead letter, a retained completed job), not a 202 for a job never added; and
// during a secret rotation the same bytes signed under each secret are still one delivery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '@forms-api/webhook-verify';
import { until } from '@forms-api/test-support';
import { deliveryBody, postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { queueIsIdle, windowEnds } from './support/settled.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const OLD_SECRET = 'whsec_inbox_previous_secret_9876543210';
const WINDOW_MS = 1_000;
let world: InboxWorld;
const failing = new Set<number>();
const runs: Array<{ id: string; submissionId: number }> = [];

beforeAll(async () => {
  // Completed jobs kept a day (the default), dead letters kept: both outlive the window.
  world = await startInboxWorld({
    queue: 'after-window',
    inbox: { secret: [SECRET, OLD_SECRET], dedupeWindowMs: WINDOW_MS, retry: { attempts: 1, backoffMs: 50 } },
    worker: {
      handler: ({ id, payload }) => {
        runs.push({ id, submissionId: payload!.submission_id });
        if (failing.has(payload!.submission_id)) throw new Error('the CRM is down');
      },
      onFailure: () => {},
    },
  });
});

afterAll(() => world?.close());

const runsOf = (submissionId: number) => runs.filter((run) => run.submissionId === submissionId);

describe('after the deduplication window', () => {
  it('a copy of a dead-lettered delivery is a new job, and runs', async () => {
    failing.add(1);
    const delivery = await signedDelivery(1);
    const first = await postDelivery(world.url, delivery);
    expect(first.status).toBe(202);
    await until('the dead letter', async () => (await world.queue.getFailedCount()) === 1);
    failing.delete(1);

    await windowEnds(world.redis.port, 'after-window', first.body.id!);
    const copy = await postDelivery(world.url, delivery);
    expect(copy.status).toBe(202);
    expect(copy.body.id).not.toBe(first.body.id);
    await until('the copy to run', () => runsOf(1).length === 2);
    expect(await (await world.queue.getJob(copy.body.id!))!.getState()).toBe('completed');
    // The dead letter is still there, untouched, for the operator.
    expect(await (await world.queue.getJob(first.body.id!))!.getState()).toBe('failed');
  });

  it('a copy of a completed delivery still kept is a new job, and runs; copies inside the new window are not', async () => {
    const delivery = await signedDelivery(2);
    const first = await postDelivery(world.url, delivery);
    await until('the first run', () => runsOf(2).length === 1);
    await until(
      'the job to complete',
      async () => (await (await world.queue.getJob(first.body.id!))?.getState()) === 'completed',
    );

    await windowEnds(world.redis.port, 'after-window', first.body.id!);
    const copies = await Promise.all([postDelivery(world.url, delivery), postDelivery(world.url, delivery)]);
    expect(copies.map((c) => c.status)).toEqual([202, 202]);
    expect(copies[0]!.body.id).toBe(copies[1]!.body.id);
    expect(copies[0]!.body.id).not.toBe(first.body.id);
    await until('the copy to run', () => runsOf(2).length === 2);
    await queueIsIdle(world.redis.port, 'after-window');
    expect(runsOf(2).map((run) => run.id)).toEqual([first.body.id, copies[0]!.body.id]);
  });
});

describe('during a secret rotation', () => {
  it('the same bytes signed under the new and the old secret are one delivery', async () => {
    const body = deliveryBody(3);
    const underNew = { body, signature: await sign(SECRET, body) };
    const underOld = { body, signature: await sign(OLD_SECRET, body) };
    const answers = [await postDelivery(world.url, underNew), await postDelivery(world.url, underOld)];
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    expect(answers[0]!.body.id).toBe(answers[1]!.body.id);
    await until('the run', () => runsOf(3).length === 1);
    await queueIsIdle(world.redis.port, 'after-window');
    expect(runsOf(3)).toHaveLength(1);
  });
});
