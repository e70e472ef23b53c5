// What every inbox command works with: a session (the queue and its Redis client), how output is
// written, and the job readers several commands share (a job by id, its summary, the failed set).
import { Job, Queue } from 'bullmq';
import { createRedisClient, describeTarget, type InboxConnection, type RedisClient } from '../connection.js';
import { isReconciledJob, readDelivery, readReconciled } from '../delivery.js';
import { InboxError } from '../errors.js';
import { inboxQueuePrefix } from '../queue-keys.js';
import type { CliIo } from './io.js';

export interface Session {
  queue: Queue;
  client: RedisClient;
  close(): Promise<void>;
}

export interface RunOptions {
  queue: string;
  json: boolean;
  io: CliIo;
}

export type Command = (session: Session, options: RunOptions) => Promise<number>;

export async function openSession(url: InboxConnection, queueName: string): Promise<Session> {
  const client = createRedisClient(url, 'oneshot');
  client.on('error', () => {}); // the outcome is reported once, below
  await new Promise<void>((resolve, reject) => {
    const fail = (error?: Error) =>
      reject(
        new InboxError(
          'redis_unavailable',
          `Could not reach Redis at ${describeTarget(client)}${error ? ` (${error.message})` : ''}. Check --redis (or FORMS_INBOX_REDIS_URL) and that Redis runs.`,
          {
            context: { target: describeTarget(client) },
          },
        ),
      );
    client.once('ready', () => resolve());
    client.once('error', fail);
    client.once('end', () => fail());
  }).catch(async (error) => {
    client.disconnect();
    throw error;
  });
  const queue = new Queue(queueName, { connection: client, prefix: inboxQueuePrefix(queueName) });
  queue.on('error', () => {});
  return {
    queue,
    client,
    async close() {
      await queue.close().catch(() => {});
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/**
 * A job by id, even one whose stored data is not JSON (BullMQ's own reader throws on it): that one
 * comes back with a marker in place of its data, which `readDelivery` reports as `corrupt_job`.
 */
export async function loadJob({ queue, client }: Session, id: string): Promise<Job | undefined> {
  try {
    return await queue.getJob(id);
  } catch (error) {
    const raw = await client.hgetall(queue.toKey(id));
    if (Object.keys(raw).length === 0) return undefined;
    const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
    let opts = {};
    try {
      opts = JSON.parse(raw.opts ?? '{}');
    } catch {
      // Unreadable options too: the job is listed with the defaults.
    }
    const json = {
      id,
      name: raw.name ?? '',
      data: JSON.stringify({ unreadable: (error as Error).message }),
      opts,
      timestamp: number(raw.timestamp) ?? 0,
      finishedOn: number(raw.finishedOn),
      processedOn: number(raw.processedOn),
      failedReason: raw.failedReason,
      attemptsMade: number(raw.atm) ?? 0,
      stacktrace: raw.stacktrace ?? '[]',
    };
    return Job.fromJSON(queue, json as never, id);
  }
}

/** Ids of the failed set, newest first (ids only: a job with unreadable data cannot break the list). */
export const failedIds = (queue: Queue, start: number, end: number) => queue.getRanges(['failed'], start, end, false);

export const finishedAt = (job: Job) => (job.finishedOn ? new Date(job.finishedOn).toISOString() : null);

export function summary(job: Job) {
  let formId: number | undefined;
  let submissionId: number | undefined;
  try {
    if (isReconciledJob(job.data)) {
      const { submission } = readReconciled(job.data, job.id as string);
      formId = submission.formId;
      submissionId = submission.id;
    } else {
      const { payload } = readDelivery(job.data, job.id as string);
      formId = payload.form_id;
      submissionId = payload.submission_id;
    }
  } catch {
    // A job with data this package did not write still gets listed, without form and submission.
  }
  return {
    id: job.id as string,
    attemptsMade: job.attemptsMade,
    maxAttempts: job.opts.attempts ?? 1,
    failedReason: job.failedReason ?? null,
    formId: formId ?? null,
    submissionId: submissionId ?? null,
  };
}

export async function jobOrFail(session: Session, id: string): Promise<Job> {
  const { queue } = session;
  const job = await loadJob(session, id);
  if (!job)
    throw new InboxError(
      'job_not_found',
      `No job ${id} on queue ${queue.name}. Completed jobs are removed after a day; list the failed ones with \`failed\`.`,
      { context: { id } },
    );
  return job;
}
