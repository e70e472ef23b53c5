// Completed deliveries keep their raw bodies, so `inbox replay --status completed` can run them
// again, while the bodies kept across the queue stay within the workers' `completedBodyBytes`:
// beyond it the oldest kept bodies are dropped first (replay then names them `body_not_kept`), a
// body larger than the whole budget is dropped at once, and two workers completing at the same
// time keep one account that never exceeds the budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { createInboxWorker } from '../src/index.js';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld, type WorldWorkerOptions } from './support/world.js';

const QUEUE = 'kept-bodies';
const SIZE = 20_000;
// Three bodies of SIZE fit, a fourth does not.
const BUDGET = 3 * SIZE + 5_000;
let world: InboxWorld;
const runs: Array<{ id: string; submissionId: number }> = [];

const worker: WorldWorkerOptions = {
  concurrency: 4,
  completedBodyBytes: BUDGET,
  handler: ({ id, payload }) => void runs.push({ id, submissionId: payload!.submission_id }),
};

beforeAll(async () => {
  world = await startInboxWorld({ queue: QUEUE, inbox: { retry: { attempts: 1, backoffMs: 10 } }, worker });
});

afterAll(() => world?.close());

/** The raw bytes of the bodies completed jobs hold now, read from the jobs themselves. */
async function keptBytes(): Promise<{ bytes: number; ids: string[] }> {
  const jobs = await world.queue.getCompleted(0, -1);
  const kept = jobs.filter((job) => typeof (job.data as { body?: unknown }).body === 'string');
  return {
    bytes: kept.reduce((sum, job) => sum + Buffer.byteLength((job.data as { body: string }).body, 'base64'), 0),
    ids: kept.map((job) => job.id as string),
  };
}

const completed = async (id: string) =>
  (await world.queue.getJob(id))?.finishedOn !== undefined &&
  (await world.raw.zscore(world.queue.toKey('completed'), id)) !== null;

const ids: Record<number, string> = {};

describe('completed bodies within a byte budget', () => {
  it('keeps the newest bodies that fit and drops the oldest first; replay runs the kept ones and names the others', async () => {
    for (const submission of [1, 2, 3, 4, 5]) {
      const posted = await postDelivery(world.url, await signedDelivery(submission, SIZE));
      expect(posted.status).toBe(202);
      ids[submission] = posted.body.id!;
      // One after the other, so "oldest" is well defined.
      await until(
        `delivery ${submission} to complete and be accounted`,
        async () =>
          (await completed(ids[submission]!)) &&
          (await world.raw.zscore(world.queue.toKey('kept-bodies'), ids[submission]!)) !== null,
      );
    }
    const kept = await keptBytes();
    expect(kept.ids.sort()).toEqual([ids[3], ids[4], ids[5]].sort());
    expect(kept.bytes).toBeLessThanOrEqual(BUDGET);
    expect(Number(await world.raw.get(world.queue.toKey('kept-bodies:total')))).toBe(kept.bytes);
    // A dropped body keeps the record: headers, size; `show` says why.
    const shown = JSON.parse((await world.cli('show', ids[1]!, '--json')).out);
    expect(shown).toMatchObject({
      state: 'completed',
      delivery: {
        payload: null,
        body: 'not kept: over the completed body budget',
        bytes: Buffer.byteLength((await signedDelivery(1, SIZE)).body),
      },
    });
    expect(Number(await world.raw.memory('USAGE', world.queue.toKey(ids[1]!)))).toBeLessThan(10_000);

    const dry = await world.cli('replay', '--status', 'completed', '--dry-run', '--json', '--secret', SECRET);
    expect(dry.code).toBe(1);
    const report = JSON.parse(dry.out) as { deliveries: Array<{ id: string; action: string; reason?: string }> };
    const of = (submission: number) => report.deliveries.find((d) => d.id === ids[submission]);
    for (const submission of [1, 2])
      expect(of(submission)).toMatchObject({ action: 'skipped', reason: 'body_not_kept' });
    for (const submission of [3, 4, 5]) expect(of(submission)).toMatchObject({ action: 'replay' });

    // The kept ones run again from their stored bytes, once each.
    const before = runs.length;
    // The bodiless ones are listed whatever --form says (their form is unknown without the body).
    const replayed = await world.cli(
      'replay',
      '--status',
      'completed',
      '--form',
      '11',
      '--since',
      '1h',
      '--secret',
      SECRET,
    );
    expect(replayed.out).toMatch(/^3 deliveries sent back to the queue; 2 cannot be replayed/m);
    await until('the three to run again', () => runs.length - before === 3);
    expect(
      runs
        .slice(before)
        .map((r) => r.submissionId)
        .sort(),
    ).toEqual([3, 4, 5]);
    await until('the three completed again', async () =>
      (await Promise.all([3, 4, 5].map((s) => completed(ids[s]!)))).every(Boolean),
    );
    // Completing again counts each body once: the account still matches what is held.
    await until(
      'the account to settle',
      async () => Number(await world.raw.get(world.queue.toKey('kept-bodies:total'))) === (await keptBytes()).bytes,
    );
    expect((await keptBytes()).bytes).toBeLessThanOrEqual(BUDGET);
  });

  it('drops at once a body larger than the whole budget, keeping the smaller ones', async () => {
    const before = await keptBytes();
    const posted = await postDelivery(world.url, await signedDelivery(6, BUDGET + 1_000));
    expect(posted.status).toBe(202);
    await until(
      'the large delivery to complete with its body dropped',
      async () =>
        (await completed(posted.body.id!)) &&
        ((await world.queue.getJob(posted.body.id!))!.data as { body?: unknown }).body === null,
    );
    expect((await keptBytes()).ids.sort()).toEqual(before.ids.sort());
  });

  it('holds the budget with two workers completing many deliveries at the same time', async () => {
    world.startWorker(worker);
    const posted = await Promise.all(
      Array.from(
        { length: 40 },
        async (_, i) => (await postDelivery(world.url, await signedDelivery(100 + i, SIZE - 3 * i))).body.id!,
      ),
    );
    await until('all forty to complete', async () => (await Promise.all(posted.map(completed))).every(Boolean), {
      timeoutMs: 60_000,
    });
    await until(
      'the account to settle',
      async () => Number(await world.raw.get(world.queue.toKey('kept-bodies:total'))) === (await keptBytes()).bytes,
    );
    const kept = await keptBytes();
    expect(kept.bytes).toBeLessThanOrEqual(BUDGET);
    expect(kept.ids.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses a budget that is not a non-negative integer, naming the option', () => {
    expect(() =>
      createInboxWorker({ connection: world.redis.url, queue: QUEUE, handler: () => {}, completedBodyBytes: -1 }),
    ).toThrow(/`completedBodyBytes` must be a non-negative integer \(got -1\)/);
  });
});
