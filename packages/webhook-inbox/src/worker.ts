// The processing side: a BullMQ worker that hands each queued delivery to your handler, retries
// failures with exponential backoff, leaves the last failure in the failed set (the dead letters),
// takes over jobs of workers that died, and shuts down without abandoning the jobs in hand.
import { Queue, UnrecoverableError, Worker, type Job, type JobJson } from 'bullmq';
import { attemptError, eventLoopWatch } from './attempt.js';
import { createRedisClient, describeRedisError, writableWithin, type InboxConnection } from './connection.js';
import { normaliseWebhookSubmission, type NormalisedSubmission } from '@forms-api/client/submissions';
import { claimKey, claimSubmission } from './claims.js';
import {
  isReconciledJob,
  readDelivery,
  readReconciled,
  submissionKeyFor,
  type InboxDelivery,
  type ReconciledDelivery,
  type WebhookDelivery,
} from './delivery.js';
import { InboxError } from './errors.js';
import { outageReporter, type InboxHealth } from './inbox.js';
import { keepCompletedBody } from './kept-bodies.js';
import { assertKnownOptions, assertPositiveInteger } from './options.js';
import { assertSecret, storedBytesVerifier } from './verification.js';
import {
  DEFAULT_COMPLETED_BODY_BYTES,
  DEFAULT_DEDUPE_WINDOW_MS,
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_LOCK_DURATION_MS,
  DEFAULT_QUEUE,
} from './policy.js';
import { printable } from '@forms-api/internal/printable';
import { inboxQueuePrefix } from './queue-keys.js';
import { measureAttempt, observeQueue, recordDeadLetter } from './telemetry/metrics.js';
import { traceHandle, workerTelemetry } from './telemetry/tracing.js';

export interface InboxWorkerOptions {
  /** Where Redis is: a `redis://` URL or ioredis options. */
  connection: InboxConnection;
  /** Runs once per delivery (again on retries). Throw to fail the attempt. */
  handler: (delivery: InboxDelivery) => unknown;
  /**
   * The webhook secret the receivers verify with (several while rotating: give every one they
   * accept). With it, each job's stored bytes are verified again before the handler runs, so bytes
   * changed in Redis never run as if the service had signed them: such a job goes to the failed
   * set as `signature_rejected`. Without it the worker trusts whatever Redis holds.
   */
  secret?: string | readonly string[];
  /**
   * How long one handler run may take before the attempt fails (`handler_timeout`) and is retried
   * like any failure; `delivery.signal` is aborted at that moment. Default 60,000 ms. A handler that
   * ignores the signal keeps running unseen, and `health()` fails until it settles.
   */
  handlerTimeoutMs?: number;
  /** Deliveries handled at the same time by this process. Default 1. */
  concurrency?: number;
  /** BullMQ queue name. Default `forms-webhooks`, as for `createInbox`. */
  queue?: string;
  /**
   * How long a job stays locked to this worker without a renewal (renewed every half of it while
   * the handler runs). If the process dies mid-job, another worker takes the job over once the lock
   * has expired and a stalled check has run. Default 30,000 ms (BullMQ's). A handler that blocks
   * the event loop (synchronous CPU work) longer than half of it stops the renewals: the run is then
   * failed with `lock_lost`, since another worker may have taken the job.
   */
  lockDurationMs?: number;
  /** How often this worker looks for jobs whose worker died. Default 30,000 ms (BullMQ's). */
  stalledIntervalMs?: number;
  /**
   * How long the worker's claim on a submission lasts (taken as it runs a job whose receiver died
   * before claiming): give the inbox's `dedupeWindowMs` (and the reconciler's `claimWindowMs`), so
   * a claim neither outlives nor ends before theirs. Default 7 days, as theirs.
   */
  dedupeWindowMs?: number;
  /**
   * Raw bytes of delivery bodies that the queue's retained completed jobs may keep, in all, so
   * `inbox replay --status completed` can run them again. Beyond it the oldest kept bodies are
   * dropped first (their headers and size stay); a body larger than the whole budget is dropped at
   * once. Redis holds about 4/3 of it (base64). Shared by every worker of the queue: give them all
   * the same value. Default 64 MiB; 0 keeps no completed body.
   */
  completedBodyBytes?: number;
  /** Called for every failed attempt; `final` is true when the delivery now stays in the failed set. Default: one stderr line for final failures. */
  onFailure?: (failure: { id: string; attempt: number; maxAttempts: number; final: boolean; error: Error }) => void;
  /** Called once when Redis becomes unreachable. Default: one stderr line. The worker resumes by itself. */
  onRedisError?: (error: Error) => void;
}

export interface InboxWorker {
  readonly queue: string;
  readonly closing: boolean;
  /** Fails when Redis cannot take writes (unreachable, a read-only replica), or a handler outlived its deadline. */
  health(): Promise<InboxHealth>;
  /** Fetches no new jobs, waits for the handlers running now to finish, then disconnects. */
  close(): Promise<void>;
}

const WORKER_OPTIONS: Record<keyof InboxWorkerOptions, true> = {
  connection: true,
  handler: true,
  secret: true,
  handlerTimeoutMs: true,
  concurrency: true,
  queue: true,
  lockDurationMs: true,
  stalledIntervalMs: true,
  dedupeWindowMs: true,
  completedBodyBytes: true,
  onFailure: true,
  onRedisError: true,
};

export function createInboxWorker(options: InboxWorkerOptions): InboxWorker {
  assertKnownOptions<InboxWorkerOptions>(options, WORKER_OPTIONS, { where: 'createInboxWorker' });
  if (typeof options.handler !== 'function')
    throw new InboxError(
      'invalid_option',
      'Pass `handler`: an async function that receives each delivery ({ payload, rawBody, headers, id, attempt }).',
    );
  const queueName = options.queue ?? DEFAULT_QUEUE;
  const prefix = inboxQueuePrefix(queueName);
  const concurrency = assertPositiveInteger('concurrency', options.concurrency ?? 1);
  const lockDuration = assertPositiveInteger('lockDurationMs', options.lockDurationMs ?? DEFAULT_LOCK_DURATION_MS);
  const stalledInterval =
    options.stalledIntervalMs === undefined
      ? undefined
      : assertPositiveInteger('stalledIntervalMs', options.stalledIntervalMs);
  const handlerTimeoutMs = assertPositiveInteger(
    'handlerTimeoutMs',
    options.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS,
  );
  const completedBodyBytes = assertPositiveInteger(
    'completedBodyBytes',
    options.completedBodyBytes ?? DEFAULT_COMPLETED_BODY_BYTES,
    { allowZero: true },
  );
  const dedupeWindowMs = assertPositiveInteger('dedupeWindowMs', options.dedupeWindowMs ?? DEFAULT_DEDUPE_WINDOW_MS);
  const onFailure = options.onFailure ?? defaultFailureReport;
  if (options.secret !== undefined) assertSecret(options.secret);
  const verifyStored = options.secret === undefined ? undefined : storedBytesVerifier(options.secret);
  // Handler runs whose attempt already failed at the deadline but which have not settled yet.
  const overdue = new Set<Promise<unknown>>();
  // BullMQ renews a lock every half of its duration: a block longer than that may cost the lock.
  const renewalMs = lockDuration / 2;
  const blocking = eventLoopWatch(Math.max(10, Math.min(250, renewalMs / 4)));

  const client = createRedisClient(options.connection, 'worker');
  const reportError = outageReporter(
    client,
    options.onRedisError ??
      ((error) =>
        console.error(`[webhook-inbox] worker: ${describeRedisError(client, error)}; waiting for it to recover.`)),
  );

  // What the handler is given, less the run's own fields; the ids for the trace.
  type RunFields = 'id' | 'firstOfSubmission' | 'attempt' | 'maxAttempts' | 'signal';
  type Given = Omit<WebhookDelivery, RunFields> | Omit<ReconciledDelivery, RunFields>;
  const read = async (job: Job): Promise<{ given: Given; ids: { form_id?: unknown; submission_id?: unknown } }> => {
    const jobId = job.id as string;
    if (isReconciledJob(job.data)) {
      const { submission, receivedAt } = readReconciled(job.data, jobId);
      const given: Given = {
        origin: 'reconcile',
        submissionKey: submission.key,
        submission,
        payload: null,
        rawBody: null,
        headers: null,
        receivedAt,
      };
      return { given, ids: { form_id: submission.formId, submission_id: submission.id } };
    }
    const stored = readDelivery(job.data, jobId);
    await verifyStored?.(jobId, stored.rawBody, stored.headers);
    let submission: NormalisedSubmission | null = null;
    try {
      submission = normaliseWebhookSubmission(stored.payload);
    } catch {
      // A verified payload without its ids or `data` (the service's always have them): the handler still gets it.
    }
    const given: Given = {
      origin: 'webhook',
      submissionKey: submissionKeyFor(stored.payload),
      submission,
      ...stored,
    };
    return { given, ids: stored.payload };
  };

  const processJob = async (job: Job, token?: string) => {
    let given: Given;
    let ids: { form_id?: unknown; submission_id?: unknown };
    try {
      ({ given, ids } = await read(job));
    } catch (error) {
      // Retrying cannot repair the data: straight to the failed set, with the reason.
      throw new UnrecoverableError((error as Error).message);
    }
    // Claimed again here in case a receiver stored the job but died before claiming it. A
    // reconciled job whose submission a webhook claimed meanwhile is that webhook's to run.
    const holder =
      given.submissionKey === null
        ? (job.id as string)
        : await claimSubmission(client, claimKey(prefix, given.submissionKey), job.id as string, dedupeWindowMs);
    const firstOfSubmission = holder === job.id;
    if (given.origin === 'reconcile' && !firstOfSubmission) {
      await job.log(`not run: its submission was claimed by ${holder}, which runs it`).catch(() => {});
      return { skipped: 'claimed', by: holder };
    }
    const deadline = new AbortController();
    const attempt = runNumber(job);
    // A run that ended without an outcome (its worker died or lost the lock) is not in attemptsMade:
    // say in the job's log why this run follows it, as `show` prints the log.
    const lost = attempt - job.attemptsMade - 1;
    if (lost > 0)
      await job
        .log(
          `attempt ${attempt} taken over: ${lost === 1 ? 'the run before it' : `${lost} runs before it`} ended without an outcome, because ${lost === 1 ? 'its worker' : 'their workers'} stopped renewing the lock (the process died or blocked its event loop)`,
        )
        .catch(() => {});
    // The handler starts on the next tick (after the event-loop watch below has started), and what it
    // throws is made a proper Error before telemetry reads it (a hostile `message` getter included).
    const run = Promise.resolve().then(() =>
      traceHandle(queueName, job.id as string, ids, attempt, () =>
        measureAttempt(queueName, async () => {
          try {
            return await options.handler({
              ...given,
              id: job.id as string,
              firstOfSubmission,
              attempt,
              maxAttempts: job.opts.attempts ?? 1,
              signal: deadline.signal,
            });
          } catch (thrown) {
            throw attemptError(thrown);
          }
        }),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new InboxError(
          'handler_timeout',
          `The handler did not settle within ${handlerTimeoutMs} ms (handlerTimeoutMs), so this attempt failed and \`signal\` was aborted. Raise handlerTimeoutMs if the work legitimately takes longer.`,
          {
            context: { jobId: job.id, handlerTimeoutMs },
          },
        );
        deadline.abort(error);
        // BullMQ frees the slot now; the run is watched until it settles, for health().
        overdue.add(run);
        run.then(
          () => overdue.delete(run),
          () => overdue.delete(run),
        );
        reject(error);
      }, handlerTimeoutMs);
    });
    const blockedFor = blocking.start();
    let failure: Error | undefined;
    try {
      await Promise.race([run, timedOut]);
    } catch (thrown) {
      failure = attemptError(thrown);
    } finally {
      clearTimeout(timer);
    }
    const blockedMs = blockedFor();
    if (
      blockedMs > renewalMs &&
      token !== undefined &&
      (await client.get(`${worker.toKey(job.id as string)}:lock`)) !== token
    ) {
      const lost = new InboxError(
        'lock_lost',
        `The event loop was blocked for ${Math.round(blockedMs)} ms during this run, longer than the lock renewal period (half of lockDurationMs, ${lockDuration} ms): the job's lock expired, so another worker may run it at the same time, and this run's outcome is discarded. Move CPU-bound work off the event loop (node:worker_threads) or raise lockDurationMs above the longest block.`,
        {
          context: { jobId: job.id, blockedMs: Math.round(blockedMs), lockDurationMs: lockDuration },
        },
      );
      // BullMQ cannot record anything for a job whose lock is gone: the job's log and onFailure carry it.
      await job.log(lost.message).catch(() => {});
      onFailure({
        id: job.id as string,
        attempt,
        maxAttempts: job.opts.attempts ?? 1,
        final: false,
        error: lost,
      });
      throw lost;
    }
    if (failure) throw failure;
  };

  const worker = new DeliveryWorker(queueName, processJob, {
    connection: client,
    prefix,
    telemetry: workerTelemetry(),
    concurrency,
    lockDuration,
    ...(stalledInterval === undefined ? {} : { stalledInterval }),
  });
  // A run whose lock was lost cannot be completed or failed ("Missing lock"): reported above as
  // lock_lost, and not a Redis outage.
  worker.on('error', (error) =>
    /missing lock|lock mismatch/i.test(error.message) ? undefined : reportError.error(error),
  );
  // A completed job keeps its body within the queue's byte budget (for replay); the oldest kept
  // bodies go first. If Redis cannot run the accounting at that moment, that one body is held
  // outside the budget until retention removes its job (one day by default).
  worker.on('completed', (job) => {
    keepCompletedBody(client, (name) => worker.toKey(name), job.id as string, completedBodyBytes).catch(() => {});
  });
  worker.on('failed', (job, error) => {
    if (!job) return;
    const maxAttempts = job.opts.attempts ?? 1;
    const final =
      error instanceof UnrecoverableError || error.name === 'UnrecoverableError' || job.attemptsMade >= maxAttempts;
    if (final) recordDeadLetter(queueName);
    onFailure({
      id: job.id as string,
      attempt: Math.max(job.attemptsStarted, job.attemptsMade),
      maxAttempts,
      final,
      error,
    });
  });
  // Queue depth and age for this process's metrics, over the worker's own connection.
  const metricsQueue = new Queue(queueName, { connection: client, prefix });
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
      if (overdue.size > 0) {
        return {
          ok: false,
          reason: 'handler_stuck',
          message: `${overdue.size} handler run${overdue.size === 1 ? '' : 's'} outlived handlerTimeoutMs (${handlerTimeoutMs} ms) and ${overdue.size === 1 ? 'is' : 'are'} still running: the attempt failed and is retried, possibly while the old run goes on. Make the handler stop when \`signal\` aborts, or restart this worker.`,
        };
      }
      try {
        return { ok: true, latencyMs: await writableWithin(client, worker.toKey('health'), 2_000) };
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

/**
 * The number of the run that starts now: every start counts, a run taken over after its worker died
 * included (BullMQ counts those in `attemptsStarted`, while `attemptsMade` counts finished runs).
 */
function runNumber(job: Job): number {
  return Math.max(job.attemptsStarted, job.attemptsMade + 1);
}

function defaultFailureReport(failure: {
  id: string;
  attempt: number;
  maxAttempts: number;
  final: boolean;
  error: Error;
}): void {
  if ((failure.error as InboxError).kind === 'lock_lost') {
    console.error(`[webhook-inbox] delivery ${failure.id}, attempt ${failure.attempt}: ${failure.error.message}`);
    return;
  }
  if (!failure.final) return;
  // The reason may quote a form answer: escaped, so it cannot move the cursor or forge a log line.
  console.error(
    `[webhook-inbox] delivery ${failure.id} failed on attempt ${failure.attempt}/${failure.maxAttempts} and stays in the failed set: ${printable(failure.error.message)}. Inspect it with \`forms-webhook-inbox failed\`, retry it with \`forms-webhook-inbox retry ${failure.id}\`.`,
  );
}

/**
 * BullMQ's worker, except that a job whose stored data is not JSON (written by hand, or by another
 * producer) is handed to the processor with a marker instead of failing inside BullMQ, where it
 * would stay active for ever; the processor then fails it as `corrupt_job`, with the reason.
 *
 * `createJob` is protected, not public API: BullMQ 6.7 offers no public hook where a fetched job's
 * data is parsed (no option, no event; `Job.fromJSON` runs inside `nextJobFromJobData`). It is kept
 * on purpose; test/bullmq-still-builds-fetched-jobs-through-create-job.test.ts fails, naming this
 * override, if a BullMQ release renames it, changes its arguments or stops calling it.
 */
class DeliveryWorker extends Worker {
  protected override createJob(data: JobJson, jobId: string): Job {
    try {
      return super.createJob(data, jobId);
    } catch (error) {
      return super.createJob({ ...data, data: JSON.stringify({ unreadable: (error as Error).message }) }, jobId);
    }
  }
}
