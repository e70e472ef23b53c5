// Exactly once across processes: three receiver processes and two worker processes on one Redis.
// 1,000 distinct signed deliveries, each sent twice at the same moment to two different receivers,
// then 100 replays of old ones after they were processed: exactly 1,000 handler runs, none twice.
import { describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { jobIdFor } from '../src/index.js';
import { inBatches, postDelivery, signedDelivery, SECRET } from './support/deliveries.js';
import { queueIsIdle } from './support/settled.js';
import { processWorldPerFile, startFixture, type FixtureMessage } from './support/processes.js';

const DELIVERIES = 1_000;
const REPLAYS = 100;

const world = processWorldPerFile();

describe('the same delivery on many receivers', () => {
  it('runs the handler exactly once per distinct delivery, with duplicates and late replays', async () => {
    const env = { REDIS_URL: world.redis.url, WEBHOOK_SECRET: SECRET, INBOX_QUEUE: 'once' };
    const receivers = await Promise.all([1, 2, 3].map(() => startFixture('receiver.mjs', env)));
    const workers = await Promise.all([1, 2].map(() => startFixture('worker.mjs', { ...env, CONCURRENCY: '8' })));
    world.fixtures.push(...receivers, ...workers);
    const urls = receivers.map((r) => `http://127.0.0.1:${r.port}/webhooks/forms`);

    const deliveries = await Promise.all(Array.from({ length: DELIVERIES }, (_, i) => signedDelivery(10_000 + i)));
    // Both copies leave together, to two different receivers (i and i+1, wrapping).
    const pairs = await inBatches(deliveries, 32, (delivery, i) =>
      Promise.all([
        postDelivery(urls[i % urls.length]!, delivery),
        postDelivery(urls[(i + 1) % urls.length]!, delivery),
      ]),
    );
    for (const [index, [first, second]] of pairs.entries()) {
      const expectedId = jobIdFor(deliveries[index]!.body);
      expect(first, `delivery ${index}, first copy`).toMatchObject({
        status: 202,
        body: { status: 'queued', id: expectedId },
      });
      expect(second, `delivery ${index}, second copy`).toMatchObject({
        status: 202,
        body: { status: 'queued', id: expectedId },
      });
    }

    const done = () =>
      workers
        .flatMap((w) => w.messages)
        .filter((m): m is Extract<FixtureMessage, { type: 'done' }> => m.type === 'done');
    await until(`${DELIVERIES} handler runs`, () => done().length >= DELIVERIES, { timeoutMs: 60_000 });

    // Replays of old, already processed deliveries, each to a receiver it did not go to before.
    const replayed = deliveries.filter((_, i) => i % (DELIVERIES / REPLAYS) === 0);
    const answers = await inBatches(replayed, 16, (delivery, i) =>
      postDelivery(urls[(i + 2) % urls.length]!, delivery),
    );
    expect(answers.map((a) => a.status)).toEqual(replayed.map(() => 202));
    // Any job a replay wrongly created was added before its 202: it has run once the queue is idle.
    await queueIsIdle(world.redis.port, 'once');

    const runs = done();
    const started = workers.flatMap((w) => w.messages).filter((m) => m.type === 'started');
    expect(started).toHaveLength(DELIVERIES);
    expect(runs).toHaveLength(DELIVERIES);
    expect(new Set(runs.map((r) => r.submissionId)).size).toBe(DELIVERIES);
    expect(new Set(runs.map((r) => r.id))).toEqual(new Set(deliveries.map((d) => jobIdFor(d.body))));
    // Both worker processes took part: the deduplication is not an artefact of one consumer.
    expect(new Set(runs.map((r) => r.pid)).size).toBe(2);
  });
});
