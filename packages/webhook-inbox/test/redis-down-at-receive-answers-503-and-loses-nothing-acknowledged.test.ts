// Redis crashes in the middle of a burst: receivers answer 503 (quickly, well inside the service's
// 5 s) for what they could not store, the health check fails, and once Redis is back (AOF with
// appendfsync always) receivers take deliveries again and every delivery answered 202 is processed,
// exactly once.
import { describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { jobIdFor } from '../src/index.js';
import { inBatches, postDelivery, SECRET, signedDelivery, type Posted, type Signed } from './support/deliveries.js';
import { processWorldPerFile, startFixture } from './support/processes.js';
import { queueIsIdle } from './support/settled.js';

const world = processWorldPerFile({ appendonly: true, appendfsync: 'always' });

const health = async (port: number) => (await fetch(`http://127.0.0.1:${port}/healthz`)).status;

describe('Redis down at receive', () => {
  it('answers 503 fast, acknowledges nothing it did not store, and recovers when Redis returns', async () => {
    const env = { REDIS_URL: world.redis.url, WEBHOOK_SECRET: SECRET, INBOX_QUEUE: 'outage' };
    const receivers = await Promise.all([1, 2].map(() => startFixture('receiver.mjs', env)));
    world.fixtures.push(...receivers);
    const urls = receivers.map((r) => `http://127.0.0.1:${r.port}/webhooks/forms`);
    const send = (batch: Signed[], onAnswer: (answer: Posted) => void = () => {}) =>
      inBatches(batch, 16, async (delivery, i) => {
        const answer = await postDelivery(urls[i % 2]!, delivery);
        onAnswer(answer);
        return answer;
      });
    const all = await Promise.all(Array.from({ length: 700 }, (_, i) => signedDelivery(50_000 + i)));
    const answered = new Map<Signed, Posted>();

    // Before: everything is stored.
    const before = all.slice(0, 150);
    (await send(before)).forEach((answer, i) => answered.set(before[i]!, answer));
    expect([...answered.values()].every((a) => a.status === 202)).toBe(true);

    // During: Redis crashes (SIGKILL) after the 60th answer of a 400-delivery burst.
    const burst = all.slice(150, 550);
    let count = 0;
    let crashed: Promise<void> | undefined;
    const burstAnswers = await send(burst, () => {
      if (++count === 60) crashed = world.redis.stop('SIGKILL');
    });
    await crashed;
    burstAnswers.forEach((answer, i) => answered.set(burst[i]!, answer));
    // Every answer came within the service's 5 s budget (postDelivery's; 0 when cut): an answer held
    // by the outage would still be waiting, as Redis comes back only after the burst.
    const statuses = new Set(burstAnswers.map((a) => a.status));
    expect([...statuses].sort()).toEqual([202, 503]);
    for (const answer of burstAnswers.filter((a) => a.status === 503)) {
      expect(['redis_unavailable', 'enqueue_timeout']).toContain(answer.body.error);
      expect(answer.body.message).toMatch(/^The queue (is unavailable|did not confirm)/);
      // The service records this body, and a load balancer or the public may read it: no address.
      expect(JSON.stringify(answer.body)).not.toMatch(new RegExp(`127\\.0\\.0\\.1|${world.redis.port}`));
    }
    expect(await health(receivers[0]!.port!)).toBe(503);
    expect(await health(receivers[1]!.port!)).toBe(503);
    const healthBody = await (await fetch(`http://127.0.0.1:${receivers[0]!.port}/healthz`)).text();
    expect(JSON.parse(healthBody)).toMatchObject({ status: 'unavailable', reason: 'redis_unavailable' });
    expect(healthBody).not.toMatch(new RegExp(`127\\.0\\.0\\.1|${world.redis.port}`));

    // After: Redis restarts from its AOF; receivers reconnect by themselves.
    await world.redis.start();
    await until(
      'both receivers healthy again',
      async () => (await health(receivers[0]!.port!)) === 200 && (await health(receivers[1]!.port!)) === 200,
      { timeoutMs: 15_000 },
    );
    const after = all.slice(550);
    (await send(after)).forEach((answer, i) => answered.set(after[i]!, answer));
    expect(after.every((d) => answered.get(d)!.status === 202)).toBe(true);

    // Every acknowledged delivery is processed exactly once; nothing appears that was not sent.
    const acknowledged = [...answered].filter(([, a]) => a.status === 202).map(([d]) => jobIdFor(d.body));
    const refused = new Set([...answered].filter(([, a]) => a.status !== 202).map(([d]) => jobIdFor(d.body)));
    expect(acknowledged.length).toBeGreaterThan(150 + 60 + 100 - 1);
    expect(refused.size).toBeGreaterThan(0);
    const worker = await startFixture('worker.mjs', env);
    world.fixtures.push(worker);
    const runs = () => worker.messages.filter((m) => m.type === 'done') as Array<{ id: string }>;
    await until('every acknowledged delivery processed', () => {
      const ids = new Set(runs().map((r) => r.id));
      return acknowledged.every((id) => ids.has(id));
    });
    await queueIsIdle(world.redis.port, 'outage');
    const ids = runs().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    // A 503 may still have been stored (Redis took the write, the answer was lost): processing it
    // is harmless, and it is the only way a job exists without a 202.
    for (const id of ids.filter((id) => !acknowledged.includes(id))) expect(refused.has(id)).toBe(true);
  });
});
