// Readiness for "nothing else happens": instead of sleeping to give a wrongly created job room to
// run, wait until the queue has nothing left to run. A job is added before its 202, so once the
// queue is idle every job it was ever given has been run.
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { until } from '@forms-api/test-support';
import { inboxQueuePrefix } from '../../src/index.js';

/** Waits until `queue` (of the Redis on `port`) has no job waiting, delayed or running. */
export async function queueIsIdle(port: number, queue: string): Promise<void> {
  const inspector = new Queue(queue, { connection: { host: '127.0.0.1', port }, prefix: inboxQueuePrefix(queue) });
  try {
    await until(`queue ${queue} to have nothing left to run`, async () => {
      const counts = await inspector.getJobCounts('wait', 'active', 'delayed', 'prioritized', 'waiting-children');
      return Object.values(counts).every((n) => n === 0);
    });
  } finally {
    await inspector.close();
  }
}

/** Waits until the deduplication window of the delivery whose first job is `jobId` has ended. */
export async function windowEnds(port: number, queue: string, jobId: string): Promise<void> {
  const inspector = new Queue(queue, { connection: { host: '127.0.0.1', port }, prefix: inboxQueuePrefix(queue) });
  const client = new Redis(port, '127.0.0.1');
  try {
    const key = inspector.toKey(`de:${jobId}`);
    await until(`the deduplication window of ${jobId} to end`, async () => (await client.exists(key)) === 0);
  } finally {
    client.disconnect();
    await inspector.close();
  }
}

/**
 * Waits until a worker's check for stalled jobs has run `runs` more times on `queue`: each run
 * stamps the queue's `stalled-check` key with its time, so a new stamp is a new run.
 */
export async function stalledChecksRun(port: number, queue: string, runs: number): Promise<void> {
  const inspector = new Queue(queue, { connection: { host: '127.0.0.1', port }, prefix: inboxQueuePrefix(queue) });
  const client = new Redis(port, '127.0.0.1');
  try {
    const key = inspector.toKey('stalled-check');
    const seen = new Set<string>();
    const first = await client.get(key);
    await until(`${runs} runs of the stalled-job check on ${queue}`, async () => {
      const stamp = await client.get(key);
      if (stamp !== null && stamp !== first) seen.add(stamp);
      return seen.size >= runs;
    });
  } finally {
    client.disconnect();
    await inspector.close();
  }
}
