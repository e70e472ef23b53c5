// With Sentinel or Cluster, writes reach replicas asynchronously: a delivery acknowledged by a
// primary that dies before copying it is lost with it. `waitForReplicas` makes the receiver answer
// 202 only once that many replicas have it (Redis WAIT, within enqueueTimeoutMs); with too few in
// sync the answer is 503 replicas_unconfirmed, and the stored job still runs.
// Redis answers a WAIT that timed out on its next tick, up to 100 ms late: the deadline is the
// shortest allowed, where that lateness decides whether the answer comes in time, and each of
// several deliveries must be answered replicas_unconfirmed, never enqueue_timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { until } from '@forms-api/test-support';
import { createInbox, inboxQueuePrefix, isInboxError, type Inbox } from '../src/index.js';
import { SECRET, signedDelivery } from './support/deliveries.js';

const QUEUE = 'replicated';
let primary: RedisServer;
let replica: RedisServer;
let inbox: Inbox;
let queue: Queue;

const delivery = async (submissionId: number) => {
  const signed = await signedDelivery(submissionId);
  return { rawBody: Buffer.from(signed.body), signature: signed.signature, headers: {} };
};

beforeAll(async () => {
  primary = await startRedisServer();
  replica = await startRedisServer({ args: ['--replicaof', '127.0.0.1', String(primary.port)] });
  const admin = new Redis(replica.port, '127.0.0.1');
  await until('the replica to be in sync', async () =>
    (await admin.info('replication')).includes('master_link_status:up'),
  );
  admin.disconnect();
  inbox = createInbox({
    connection: primary.url,
    secret: SECRET,
    queue: QUEUE,
    waitForReplicas: 1,
    enqueueTimeoutMs: 300,
    onRedisError: () => {},
  });
  queue = new Queue(QUEUE, { connection: { host: '127.0.0.1', port: primary.port }, prefix: inboxQueuePrefix(QUEUE) });
});

afterAll(async () => {
  await inbox?.close();
  await queue?.close();
  await Promise.all([primary?.close(), replica?.close()]);
});

describe('waitForReplicas', () => {
  it('acknowledges a delivery a replica has, and refuses one no replica confirmed, which still runs', async () => {
    await expect(inbox.enqueue(await delivery(1))).resolves.toMatchObject({ id: expect.stringMatching(/^wh-/) });

    await replica.stop('SIGKILL');
    for (let submissionId = 2; submissionId <= 9; submissionId++) {
      const refused = await inbox.enqueue(await delivery(submissionId)).catch((error: unknown) => error);
      expect(isInboxError(refused) && refused.kind, `delivery of submission ${submissionId}`).toBe(
        'replicas_unconfirmed',
      );
      expect((refused as Error).message).toMatch(/0 of the 1 replicas/);
      // Stored all the same: the job runs once, and a copy sent again is the same job.
      const id = (refused as { context: { jobId: string } }).context.jobId;
      expect(await queue.getJob(id)).toBeDefined();
    }
  });

  // A CI run on a busy machine answered one of the deliveries above enqueue_timeout: Redis stored
  // it, but its timed-out WAIT came back after the deadline. A Redis whose tick comes once a second
  // (hz 1) answers every such WAIT late: each delivery it stored is still replicas_unconfirmed.
  it('refuses a stored delivery as replicas_unconfirmed when the WAIT answers after the deadline', async () => {
    const late = await startRedisServer({ args: ['--hz', '1'] });
    const admin = new Redis(late.port, '127.0.0.1');
    const lateInbox = createInbox({
      connection: late.url,
      secret: SECRET,
      queue: QUEUE,
      waitForReplicas: 1,
      enqueueTimeoutMs: 300,
      onRedisError: () => {},
    });
    try {
      for (let submissionId = 11; submissionId <= 14; submissionId++) {
        const refused = await lateInbox.enqueue(await delivery(submissionId)).catch((error: unknown) => error);
        expect(isInboxError(refused) && refused.kind, `delivery of submission ${submissionId}`).toBe(
          'replicas_unconfirmed',
        );
        expect((refused as Error).message).toMatch(/0 of the 1 replicas/);
        // The WAIT holds the inbox's connection until Redis answers it: the next delivery comes after.
        await until('Redis to answer the WAIT', async () =>
          (await admin.info('clients')).includes('blocked_clients:0'),
        );
      }
    } finally {
      await lateInbox.close();
      admin.disconnect();
      await late.close();
    }
  });

  it('must be a whole number of replicas', () => {
    expect(() => createInbox({ connection: primary.url, secret: SECRET, waitForReplicas: -1 })).toThrow(
      /waitForReplicas/,
    );
  });

  it('needs a deadline that leaves the replicas time to confirm', () => {
    expect(() =>
      createInbox({ connection: primary.url, secret: SECRET, waitForReplicas: 1, enqueueTimeoutMs: 299 }),
    ).toThrow(/`enqueueTimeoutMs` must be at least 300 ms with `waitForReplicas` \(got 299\)/);
  });
});
