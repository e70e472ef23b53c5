// The inbox's defaults in one place: queue name, deduplication window, retries, retention and the
// receive deadline, with the reasoning for each value.

/** The BullMQ queue every receiver, worker and the CLI use unless told otherwise. */
export const DEFAULT_QUEUE = 'forms-webhooks';

/** The BullMQ job name of a delivery. */
export const DELIVERY_JOB_NAME = 'submission.created';

/**
 * How long a delivery's identity is remembered: the same signed bytes arriving again within this
 * window become no new job, even after the first job completed and was removed. A week covers a
 * replay "a day later" with room to spare; each remembered delivery costs one small Redis key.
 */
export const DEFAULT_DEDUPE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How long a receiver waits for Redis to confirm a delivery before answering 503. The service
 * gives up after 5 s; answering within 2 s leaves the rest for the network and the response.
 */
export const DEFAULT_ENQUEUE_TIMEOUT_MS = 2_000;

/**
 * How late Redis may answer a blocking command that timed out: it checks their timeouts on its
 * server tick, 100 ms apart at the default `hz` of 10 (`WAIT 1 400` on an idle server answers at
 * 500 ms).
 */
export const REDIS_TICK_MS = 100;

/**
 * The shortest receive deadline with `waitForReplicas` (300 ms): a tick late, a fifth of what is
 * left (at least a tick) for the answer's way back, and a tick for the replicas to confirm.
 */
export const MIN_ENQUEUE_TIMEOUT_WITH_REPLICAS_MS = 3 * REDIS_TICK_MS;

/** Handler runs per delivery before it stays in the failed set (the dead letters). */
export const DEFAULT_ATTEMPTS = 10;

/** First retry delay; BullMQ doubles it each time (2 s, 4 s, … at most about 17 minutes in all for 10 attempts). */
export const DEFAULT_BACKOFF_MS = 2_000;

/**
 * The share of each retry delay drawn at random: 0.5 waits between half and all of it. Deliveries
 * that failed together (an outage of the CRM the handler calls) then come back spread out, not as
 * one burst at the moment the CRM recovers.
 */
export const DEFAULT_JITTER = 0.5;

/**
 * How long one handler run may take before its attempt fails and is retried. A hung handler (a
 * fetch without a timeout, a promise never settled) would otherwise hold its job and its
 * concurrency slot for ever; a minute leaves room for several slow calls to other services.
 */
export const DEFAULT_HANDLER_TIMEOUT_MS = 60_000;

/** How long a job stays locked to its worker without a renewal: BullMQ's default, named here. */
export const DEFAULT_LOCK_DURATION_MS = 30_000;

/** Completed jobs kept for inspection: one day, at most 10,000. Deduplication does not depend on them. */
export const DEFAULT_KEEP_COMPLETED = { ageSeconds: 24 * 60 * 60, count: 10_000 } as const;

/**
 * Raw bytes of bodies the retained completed jobs of a queue keep in all, for replay: 64 MiB holds
 * the last few thousand deliveries of ordinary forms (a few KiB each), or 64 at the 1 MiB body cap,
 * and costs Redis about 85 MB (base64). Older completed jobs keep their headers and size only.
 */
export const DEFAULT_COMPLETED_BODY_BYTES = 64 * 1024 * 1024;

export interface RetryPolicy {
  /**
   * Handler runs in all, the first one included, before the delivery is left in the failed set:
   * 10 means one run and up to 9 retries. (The client's `retries` counts only the extra sends.)
   * Default 10.
   */
  attempts?: number;
  /** Delay before the first retry, in ms; doubled after each failure. Default 2,000. */
  backoffMs?: number;
  /** Share of each delay drawn at random, 0 to 1: 0.5 waits between half and all of it. Default 0.5. */
  jitter?: number;
}

export interface RetentionPolicy {
  /** Completed jobs: how long (seconds) and how many to keep. Default one day, 10,000. */
  completed?: { ageSeconds?: number; count?: number };
  /** Failed jobs (dead letters): kept until you retry or remove them, unless an age or count is given. */
  failed?: { ageSeconds?: number; count?: number } | 'keep';
}
