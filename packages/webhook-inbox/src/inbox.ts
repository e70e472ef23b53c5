// The receiving side of the inbox: takes verified deliveries and adds each to the BullMQ queue once
// (job id from the signed bytes, plus a deduplication key that outlives the job), within a deadline,
// and reports whether Redis can take deliveries at all.
import { Queue, type JobsOptions } from 'bullmq';
import {
  connected,
  createRedisClient,
  describeRedisError,
  describeTarget,
  notConnected,
  reconnector,
  withTimeout,
  writableWithin,
  writeRefused,
  wroteTo,
  type InboxConnection,
  type RedisClient,
} from './connection.js';
import { claimKey, claimSubmission } from './claims.js';
import { jobIdFor, storeDelivery, submissionKeyOfBody, type VerifiedDelivery } from './delivery.js';
import { inboxQueuePrefix } from './queue-keys.js';
import { InboxError, isInboxError, type InboxErrorKind } from './errors.js';
import { assertKnownOptions, assertPositiveInteger } from './options.js';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  DEFAULT_DEDUPE_WINDOW_MS,
  DEFAULT_ENQUEUE_TIMEOUT_MS,
  DEFAULT_JITTER,
  DEFAULT_KEEP_COMPLETED,
  DEFAULT_QUEUE,
  DELIVERY_JOB_NAME,
  MIN_ENQUEUE_TIMEOUT_WITH_REPLICAS_MS,
  REDIS_TICK_MS,
  type RetentionPolicy,
  type RetryPolicy,
} from './policy.js';
import { rejectionLog, type InboxRejection } from './rejection-log.js';
import { observeQueue, recordAccepted, recordRejected } from './telemetry/metrics.js';
import { queueTelemetry, traceEnqueue } from './telemetry/tracing.js';
import { assertSecret, RECEIVE_CONFIG, type ReceiveConfig } from './verification.js';

export interface InboxOptions {
  /** Where Redis is: a `redis://` URL or ioredis options. */
  connection: InboxConnection;
  /** The integration's webhook secret, or several while rotating it. */
  secret: string | readonly string[];
  /** BullMQ queue name. Default `forms-webhooks`. Workers and the CLI must use the same. */
  queue?: string;
  /** Largest body accepted, in bytes (413 above). Default 1 MiB. */
  maxBodyBytes?: number;
  /** How long to wait for Redis to confirm a delivery before answering 503. Default 2,000 ms. */
  enqueueTimeoutMs?: number;
  /**
   * Replicas that must have each delivery before it is answered 202 (Redis `WAIT`, within
   * `enqueueTimeoutMs`; fewer in time is a 503 `replicas_unconfirmed`, and the stored job still
   * runs). Default 0. With Sentinel or Cluster, 1 means a failover cannot lose an acknowledged
   * delivery, at the price of refusing deliveries while no replica is in sync.
   */
  waitForReplicas?: number;
  /** How long the same signed delivery is recognised as a duplicate. Default 7 days. */
  dedupeWindowMs?: number;
  /** Handler runs and backoff, fixed on each delivery when it is queued. */
  retry?: RetryPolicy;
  /** How long finished jobs stay in Redis. */
  retention?: RetentionPolicy;
  /**
   * Called once when Redis becomes unreachable or starts refusing deliveries (not for every
   * reconnect attempt nor every refused delivery). Default: one line on stderr. Deliveries are
   * answered 503 until it takes them again.
   */
  onRedisError?: (error: Error) => void;
  /**
   * Called for every delivery refused before it is queued (a wrong signature or secret, a wrong
   * content type, a body too large or too slow, no room for unverified bodies). Default: one line
   * on stderr when refusals start, then at most one summary a minute with the count by reason
   * (the metrics count every one).
   */
  onRejected?: (rejection: InboxRejection) => void;
}

export interface InboxHealth {
  ok: boolean;
  /** Round trip of a small write to Redis (a replica or a full Redis fails it), when ok. */
  latencyMs?: number;
  /** Why not ok. */
  reason?: InboxErrorKind;
  message?: string;
}

export interface EnqueueResult {
  /** The job id (the same for every copy of the delivery within the deduplication window). */
  id: string;
}

export interface Inbox {
  readonly queue: string;
  /** True once `close()` was called: new deliveries are answered 503. */
  readonly closing: boolean;
  /** Adds a verified delivery to the queue; resolves once Redis has stored it (or already had it). */
  enqueue(delivery: VerifiedDelivery): Promise<EnqueueResult>;
  /** Fails when Redis cannot take deliveries right now: unreachable, a read-only replica, out of memory. */
  health(): Promise<InboxHealth>;
  /** Takes no new deliveries, waits for those being stored, then closes the Redis connection. */
  close(): Promise<void>;
}

const INBOX_OPTIONS: Record<keyof InboxOptions, true> = {
  connection: true,
  secret: true,
  queue: true,
  maxBodyBytes: true,
  enqueueTimeoutMs: true,
  dedupeWindowMs: true,
  retry: true,
  retention: true,
  onRedisError: true,
  onRejected: true,
  waitForReplicas: true,
};

export function createInbox(options: InboxOptions): Inbox {
  assertKnownOptions<InboxOptions>(options, INBOX_OPTIONS, { where: 'createInbox' });
  assertSecret(options.secret);
  const queueName = options.queue ?? DEFAULT_QUEUE;
  const prefix = inboxQueuePrefix(queueName);
  const defaultLog = options.onRejected ? undefined : rejectionLog((line) => console.error(line));
  const receiveConfig: ReceiveConfig = {
    secret: options.secret,
    maxBodyBytes: options.maxBodyBytes,
    queue: queueName,
    onRejected: options.onRejected ?? defaultLog!.report,
  };
  const enqueueTimeoutMs = assertPositiveInteger(
    'enqueueTimeoutMs',
    options.enqueueTimeoutMs ?? DEFAULT_ENQUEUE_TIMEOUT_MS,
  );
  const waitForReplicas = assertPositiveInteger('waitForReplicas', options.waitForReplicas ?? 0, { allowZero: true });
  if (waitForReplicas > 0 && enqueueTimeoutMs < MIN_ENQUEUE_TIMEOUT_WITH_REPLICAS_MS)
    throw new InboxError(
      'invalid_option',
      `\`enqueueTimeoutMs\` must be at least ${MIN_ENQUEUE_TIMEOUT_WITH_REPLICAS_MS} ms with \`waitForReplicas\` (got ${enqueueTimeoutMs}): Redis answers a WAIT that times out up to ${REDIS_TICK_MS} ms late, so a shorter deadline would leave the replicas no time to confirm.`,
      { context: { option: 'enqueueTimeoutMs' } },
    );
  const dedupeWindowMs = assertPositiveInteger('dedupeWindowMs', options.dedupeWindowMs ?? DEFAULT_DEDUPE_WINDOW_MS);
  if (options.maxBodyBytes !== undefined) assertPositiveInteger('maxBodyBytes', options.maxBodyBytes);
  const jobOptions = jobOptionsFor(options.retry, options.retention);

  const client = createRedisClient(options.connection, 'receiver');
  const queue = new Queue(queueName, { connection: client, prefix, telemetry: queueTelemetry() });
  const reportError = outageReporter(
    client,
    options.onRedisError ??
      ((error) =>
        console.error(
          `[webhook-inbox] ${describeRedisError(client, error)}; deliveries are answered 503 until it takes them again.`,
        )),
  );
  queue.on('error', reportError.error);
  const reconnectAfterTimeout = reconnector(client, enqueueTimeoutMs);
  const stopObserving = observeQueue(queue);

  let closing = false;
  let closed: Promise<void> | undefined;
  const inFlight = new Set<Promise<unknown>>();

  async function enqueue(delivery: VerifiedDelivery): Promise<EnqueueResult> {
    const started = performance.now();
    try {
      const result = await store(delivery);
      recordAccepted(queueName, (performance.now() - started) / 1000);
      reportError.recovered();
      return result;
    } catch (error) {
      if (isInboxError(error)) recordRejected(queueName, error.kind);
      // A refusal while the connection stays up (CROSSSLOT, OOM, a hung primary) emits no client
      // error: told here, once until a delivery is stored again.
      if (isInboxError(error) && error.kind !== 'closing') reportError.error(error);
      // No answer within the deadline on an open connection: the server may hang (SIGSTOP, a
      // frozen VM) while Sentinel or the cluster promotes a replica; a new connection finds it.
      if (isInboxError(error) && error.kind === 'enqueue_timeout') reconnectAfterTimeout();
      throw error;
    }
  }

  async function store(delivery: VerifiedDelivery): Promise<EnqueueResult> {
    if (closing)
      throw new InboxError(
        'closing',
        'The inbox is shutting down and takes no new deliveries; another receiver should take them.',
        { context: { queue: queueName } },
      );
    // Without this check BullMQ would wait for the connection to come back, holding the request.
    if (!(await connected(client, enqueueTimeoutMs))) throw notConnected(client, { queue: queueName });
    const id = jobIdFor(delivery.rawBody);
    const receivedAt = Date.now();
    // Set once Redis has stored the delivery: a deadline after that finds it stored, the replicas
    // not yet heard from (Redis answers a timed-out WAIT on its next tick, late on a busy server).
    let awaitingReplicas = false;
    const added = traceEnqueue(queueName, id, async () => {
      // The deduplication key is the delivery's identity for the window. After it, a copy is a new
      // delivery; if the first job is still kept (a dead letter, a retained completed job), adding
      // under its id would be a silent no-op, so the new job gets an id of its own.
      // Within the window the key names the job that has the delivery: adding under that id
      // answers with it (BullMQ checks an existing id before the deduplication key).
      const [windowJob, kept] =
        (await client
          .pipeline()
          .get(queue.toKey(`de:${id}`))
          .exists(queue.toKey(id))
          .exec()) ?? [];
      const jobId = typeof windowJob?.[1] === 'string' ? windowJob[1] : kept?.[1] ? `${id}-${receivedAt}` : id;
      const job = await queue.add(DELIVERY_JOB_NAME, storeDelivery(delivery, receivedAt), {
        ...jobOptions,
        jobId,
        deduplication: { id, ttl: dedupeWindowMs },
      });
      // Claimed once stored, never before: a claim without a stored job would hide the submission
      // from the reconciler. A receiver dying in between leaves it to the worker's claim.
      // The adapters give the key of the payload webhook-verify decoded: the body is parsed once.
      const key = delivery.submissionKey !== undefined ? delivery.submissionKey : submissionKeyOfBody(delivery.rawBody);
      if (key !== null) await claimSubmission(client, claimKey(prefix, key), job.id ?? jobId, dedupeWindowMs);
      awaitingReplicas = waitForReplicas > 0;
      if (awaitingReplicas) await confirmReplicas(id, receivedAt);
      return job;
    });
    inFlight.add(added);
    let job: { id?: string | undefined };
    try {
      job = await withTimeout(added, enqueueTimeoutMs, () =>
        awaitingReplicas
          ? replicasUnconfirmed(id, 0)
          : new InboxError(
              'enqueue_timeout',
              `Redis did not confirm the delivery within ${enqueueTimeoutMs} ms, so it was answered 503. It may still have been stored; its job id makes that harmless.`,
              {
                context: { target: describeTarget(client), timeoutMs: enqueueTimeoutMs, jobId: id, queue: queueName },
              },
            ),
      );
    } catch (error) {
      if (isInboxError(error)) throw error;
      throw writeRefused(client, error, { jobId: id, queue: queueName });
    } finally {
      inFlight.delete(added);
    }
    wroteTo(client);
    // For a copy within the window, BullMQ answers with the id of the job that has the delivery.
    return { id: job.id ?? id };
  }

  // WAIT counts the replicas that have every write made so far on its connection: sent with a key
  // of the queue, it runs on the node (and the connection) that stored the job, cluster or not.
  async function confirmReplicas(id: string, started: number): Promise<void> {
    // A WAIT that times out must be answered as such before the deadline. Redis answers it on its
    // next server tick, up to one tick late, and the answer then needs time to come back.
    const left = enqueueTimeoutMs - (Date.now() - started);
    const timeoutMs = Math.max(1, Math.floor(left - REDIS_TICK_MS - Math.max(REDIS_TICK_MS, left / 5)));
    const [, waited] =
      (await client
        .pipeline()
        .exists(queue.toKey(id))
        .call('WAIT', String(waitForReplicas), String(timeoutMs))
        .exec()) ?? [];
    const confirmed = Number(waited?.[1] ?? 0);
    if (waited?.[0] || confirmed < waitForReplicas) throw replicasUnconfirmed(id, confirmed);
  }

  function replicasUnconfirmed(id: string, confirmed: number): InboxError {
    return new InboxError(
      'replicas_unconfirmed',
      `Redis stored the delivery but ${confirmed} of the ${waitForReplicas} replicas asked for (waitForReplicas) confirmed it within ${enqueueTimeoutMs} ms, so it was answered 503. The stored job still runs, once; check that the replicas are up and in sync.`,
      { context: { target: describeTarget(client), jobId: id, queue: queueName, confirmed, waitForReplicas } },
    );
  }

  const inbox: Inbox & { [RECEIVE_CONFIG]: ReceiveConfig } = {
    queue: queueName,
    get closing() {
      return closing;
    },
    enqueue,
    async health() {
      if (closing) return { ok: false, reason: 'closing', message: 'The inbox is shutting down.' };
      try {
        return { ok: true, latencyMs: await writableWithin(client, queue.toKey('health'), enqueueTimeoutMs) };
      } catch (error) {
        const inboxError = isInboxError(error)
          ? error
          : new InboxError('redis_unavailable', (error as Error).message, { cause: error });
        return { ok: false, reason: inboxError.kind, message: inboxError.message };
      }
    },
    close() {
      closing = true;
      closed ??= (async () => {
        stopObserving();
        defaultLog?.close();
        // Stored or not, every delivery being added gets its answer before the connection goes.
        await Promise.allSettled([...inFlight]);
        await queue.close().catch(() => {});
        if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
        else client.disconnect();
      })();
      return closed;
    },
    [RECEIVE_CONFIG]: receiveConfig,
  };
  return inbox;
}

const RETRY_OPTIONS: Record<keyof RetryPolicy, true> = { attempts: true, backoffMs: true, jitter: true };

export function jobOptionsFor(retry: RetryPolicy = {}, retention: RetentionPolicy = {}): JobsOptions {
  assertKnownOptions<RetryPolicy>(retry, RETRY_OPTIONS, {
    prefix: 'retry.',
    where: 'retry',
    // `retries` is the client's word, counting only the extra sends: say how the two differ.
    hint: (name) =>
      /^(retries|maxRetries|max_retries)$/.test(name)
        ? ' `retry.attempts` counts every run, the first included: use retries + 1 (for example `attempts: 4` for 3 retries).'
        : undefined,
  });
  const attempts = assertPositiveInteger('retry.attempts', retry.attempts ?? DEFAULT_ATTEMPTS);
  const backoffMs = assertPositiveInteger('retry.backoffMs', retry.backoffMs ?? DEFAULT_BACKOFF_MS);
  const jitter = retry.jitter ?? DEFAULT_JITTER;
  if (typeof jitter !== 'number' || !(jitter >= 0 && jitter <= 1)) {
    throw new InboxError(
      'invalid_option',
      `\`retry.jitter\` must be a number from 0 (no randomness) to 1 (got ${JSON.stringify(jitter) ?? String(jitter)}).`,
      { context: { option: 'retry.jitter' } },
    );
  }
  const completed = { ...DEFAULT_KEEP_COMPLETED, ...retention.completed };
  const failed = retention.failed ?? 'keep';
  return {
    attempts,
    backoff: { type: 'exponential', delay: backoffMs, jitter },
    removeOnComplete: {
      age: assertPositiveInteger('retention.completed.ageSeconds', completed.ageSeconds),
      count: assertPositiveInteger('retention.completed.count', completed.count, { allowZero: true }),
    },
    removeOnFail: failed === 'keep' ? false : keepFailed(failed),
  };
}

function keepFailed(failed: { ageSeconds?: number; count?: number }) {
  if (failed.ageSeconds === undefined && failed.count === undefined) {
    throw new InboxError(
      'invalid_option',
      "`retention.failed` needs `ageSeconds`, `count` or both; use 'keep' (the default) to keep every dead letter.",
    );
  }
  const count =
    failed.count === undefined
      ? {}
      : { count: assertPositiveInteger('retention.failed.count', failed.count, { allowZero: true }) };
  return failed.ageSeconds === undefined
    ? { count: count.count as number }
    : { age: assertPositiveInteger('retention.failed.ageSeconds', failed.ageSeconds), ...count };
}

/**
 * Reports the first error of an outage of `client` only (ioredis emits one for every reconnect
 * attempt), and the outage over when it is ready again. Its `error` takes the errors of the queues
 * and workers on the same connection too.
 */
export function outageReporter(client: RedisClient, report: (error: Error) => void) {
  let down = false;
  const reporter = {
    error: (error: Error) => {
      if (down) return;
      down = true;
      report(error);
    },
    recovered: () => {
      down = false;
    },
  };
  client.on('error', reporter.error);
  client.on('ready', reporter.recovered);
  return reporter;
}
