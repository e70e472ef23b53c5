// Red team finding (#29): the worker ran whatever bytes Redis held, though `rawBody` is documented
// as the exact signed bytes: a body changed in Redis ran as if the service had signed it. A worker
// given the secret verifies each job's stored bytes again before its handler runs; a changed body
// goes to the failed set as signature_rejected, once, and the handler never sees it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import type { InboxDelivery } from '../src/index.js';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

let world: InboxWorld;
beforeAll(async () => {
  world = await startInboxWorld({ queue: 'tampered' });
});
afterAll(async () => {
  await world?.close();
});

/** Rewrites the stored body of a queued job, keeping its signature header, as someone with Redis access could. */
async function tamper(id: string, change: (body: string) => string) {
  const key = world.queue.toKey(id);
  const data = JSON.parse((await world.raw.hget(key, 'data'))!) as { body: string };
  data.body = Buffer.from(change(Buffer.from(data.body, 'base64').toString('utf8'))).toString('base64');
  await world.raw.hset(key, 'data', JSON.stringify(data));
}

describe('a worker given the secret', () => {
  it('runs the signed bytes and sends a body changed in Redis to the failed set, unrun, with the reason', async () => {
    const honest = await signedDelivery(1);
    const changed = await signedDelivery(2);
    const honestId = (await postDelivery(world.url, honest)).body.id!;
    const changedId = (await postDelivery(world.url, changed)).body.id!;
    await tamper(changedId, (body) => body.replace('"submission_id":2', '"submission_id":666'));

    const handled: InboxDelivery[] = [];
    const failures: { id: string; final: boolean; message: string }[] = [];
    world.startWorker({
      secret: SECRET,
      handler: (delivery) => {
        handled.push(delivery);
      },
      onFailure: ({ id, final, error }) => failures.push({ id, final, message: error.message }),
    });
    await until('both jobs to finish', async () => {
      const counts = await world.queue.getJobCounts('completed', 'failed');
      return counts.completed === 1 && counts.failed === 1;
    });
    expect(handled.map((delivery) => delivery.id)).toEqual([honestId]);
    expect(Buffer.from(handled[0]!.rawBody!).toString('utf8')).toBe(honest.body);
    const job = await world.queue.getJob(changedId);
    expect(await job!.getState()).toBe('failed');
    expect(job!.attemptsMade).toBe(1);
    expect(job!.failedReason).toMatch(
      /stored bytes do not verify against the worker's `secret` \(signature_mismatch\)/,
    );
    expect(failures).toEqual([{ id: changedId, final: true, message: job!.failedReason }]);
    const { out } = await world.cli('failed');
    expect(out).toContain(changedId);
    expect(out).not.toContain(SECRET);
  });

  it('refuses a malformed secret at construction, as the receiver does', () => {
    expect(() => world.startWorker({ secret: ' padded ', handler: () => {} })).toThrow(/secret/i);
  });
});
