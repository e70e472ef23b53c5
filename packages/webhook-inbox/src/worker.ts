// The processing side: a BullMQ worker that hands each queued delivery to your handler, retries
// failures with exponential backoff, leaves the last failure in the failed set (the dead letters),
// takes over jobs of workers that died, and shuts down without abandoning the jobs in hand.
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { createRedisClient, describeTarget, pingWithin, type InboxConnection } from './connection.js';
import { readDelivery, type InboxDelivery } from './delivery.js';
import { InboxError } from './errors.js';
import { outageReporter, type InboxHealth } from './inbox.js';
import { assertPositiveInteger } from './options.js';
import { DEFAULT_QUEUE } from './policy.js';
import { measureAttempt, observeQueue, recordDeadLetter } from './telemetry/metrics.js';
import { traceHandle, workerTelemetry } from './telemetry/tracing.js';

export interface InboxWorkerOptions {
  /** Where Redis is: a `redis://` URL or ioredis options. */
  connection: InboxConnection;
  /** Runs once per delivery (again on retries). Throw to fail the attempt. */
  handler: (delivery: InboxDelivery) => unknown;
  /** Deliveries handled at the same time by this process. Default 1. */
  concurrency?: number;
  /** BullMQ queue name. Default `forms-webhooks`, as for `createInbox`. */
  queue?: string;
  /**
   * How long a job stays locked to this worker without a renewal (renewed every half of it while
   * the handler runs). If the process dies mid-job, another worker takes the job over once the lock
   * has expired and a stalled check has run. Default 30,000 ms (BullMQ's).
   */
  lockDurationMs?: number;
  /** How often this worker looks for jobs whose worker died. Default 30,000 ms (BullMQ's). */
  stalledIntervalMs?: number;
  /** Called for every failed attempt; `final` is true when the delivery now stays in the failed set. Default: one stderr line for final failures. */
  onFailure?: (failure: { id: string; attempt: number; maxAttempts: number; final: boolean; error: Error }) => void;
  /** Called once when Redis becomes unreachable. Default: one stderr line. The worker resumes by itself. */
  onRedisError?: (error: Error) => void;
}

export interface InboxWorker {
  readonly queue: string;
  readonly closing: boolean;
  /** Fails when Redis is unreachable. */
  health(): Promise<InboxHealth>;
  /** Fetches no new jobs, waits for the handlers running now to finish, then disconnects. */
  close(): Promise<void>;
}

export function createInboxWorker(options: InboxWorkerOptions): InboxWorker {
  if (typeof options.handler !== 'function') throw new InboxError('invalid_options', 'Pass `handler`: an async function that receives each delivery ({ payload, rawBody, headers, id, attempt }).');
  const queueName = options.queue ?? DEFAULT_QUEUE;
  const concurrency = assertPositiveInteger('concurrency', options.concurrency ?? 1);
  const lockDuration = options.lockDurationMs === undefined ? undefined : assertPositiveInteger('lockDurationMs', options.lockDurationMs);
  const stalledInterval = options.stalledIntervalMs === undefined ? undefined : assertPositiveInteger('stalledIntervalMs', options.stalledIntervalMs);
  const onFailure = options.onFailure ?? defaultFailureReport;

  const client = createRedisClient(options.connection, 'worker');
  const reportError = outageReporter(options.onRedisError ?? ((error) => console.error(`[webhook-inbox] worker: Redis at ${describeTarget(client)} is unreachable (${error.message}); waiting for it to return.`)));
  client.on('error', reportError.error);
  client.on('ready', reportError.recovered);

  const processJob = async (job: Job) => {
    let stored: ReturnType<typeof readDelivery>;
    try {
      stored = readDelivery(job.data, job.id as string);
    } catch (error) {
      // Retrying cannot repair the data: straight to the failed set, with the reason.
      throw new UnrecoverableError((error as Error).message);
    }
    const attempt = job.attemptsMade + 1;
    await traceHandle(queueName, job.id as string, stored.payload, attempt, () =>
      measureAttempt(queueName, async () => options.handler({ id: job.id as string, ...stored, attempt, maxAttempts: job.opts.attempts ?? 1 })),
    );
  };

  const worker = new Worker(queueName, processJob, {
    connection: client,
    telemetry: workerTelemetry(),
    concurrency,
    ...(lockDuration === undefined ? {} : { lockDuration }),
    ...(stalledInterval === undefined ? {} : { stalledInterval }),
  });
  worker.on('error', reportError.error);
  worker.on('failed', (job, error) => {
    if (!job) return;
    const maxAttempts = job.opts.attempts ?? 1;
    const final = error instanceof UnrecoverableError || error.name === 'UnrecoverableError' || job.attemptsMade >= maxAttempts;
    if (final) recordDeadLetter(queueName);
    onFailure({ id: job.id as string, attempt: job.attemptsMade, maxAttempts, final, error });
  });
  // Queue depth and age for this process's metrics, over the worker's own connection.
  const metricsQueue = new Queue(queueName, { connection: client });
  metricsQueue.on('error', () => {}); // reported by the worker's own listener
  const stopObserving = observeQueue(metricsQueue);

  let closed: Promise<void> | undefined;
  return {
    queue: queueName,
    get closing() {
      return closed !== undefined;
    },
    async health() {
      if (closed) return { ok: false, reason: 'closing', message: 'The worker is shutting down.' };
      try {
        return { ok: true, latencyMs: await pingWithin(client, 2_000) };
      } catch (error) {
        const inboxError = error as InboxError;
        return { ok: false, reason: inboxError.kind, message: inboxError.message };
      }
    },
    close() {
      closed ??= (async () => {
        // While Redis is unreachable a job in hand can be neither completed nor failed, and
        // BullMQ's graceful close would wait for Redis forever: close at once instead; those
        // jobs are taken over, like a dead worker's, once Redis is back.
        stopObserving();
        const reachable = client.status === 'ready';
        await worker.close(!reachable);
        if (reachable) await metricsQueue.close().catch(() => {});
        if (reachable) await client.quit().catch(() => client.disconnect());
        else client.disconnect();
      })();
      return closed;
    },
  };
}

function defaultFailureReport(failure: { id: string; attempt: number; maxAttempts: number; final: boolean; error: Error }): void {
  if (!failure.final) return;
  console.error(
    `[webhook-inbox] delivery ${failure.id} failed on attempt ${failure.attempt}/${failure.maxAttempts} and stays in the failed set: ${failure.error.message}. Inspect it with \`forms-webhook inbox failed\`, retry it with \`forms-webhook inbox retry ${failure.id}\`.`,
  );
}
