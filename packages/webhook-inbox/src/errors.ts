// The package's one error type: a kind a program can branch on, a message that says what was wrong
// and what to do, and the context to debug it (never a secret: no URL password, no signature).
import { BrandedError, guardFor } from '@forms-api/internal';

export type InboxErrorKind =
  /** An option is missing or malformed; the message names it. */
  | 'invalid_option'
  /** Redis cannot be reached (down, restarting, wrong address). Deliveries are answered 503. */
  | 'redis_unavailable'
  /** Redis takes no writes: a replica (after a failover). Deliveries are answered 503; the client reconnects. */
  | 'redis_read_only'
  /** Redis did not confirm the delivery within `enqueueTimeoutMs`. Answered 503. */
  | 'enqueue_timeout'
  /** Fewer replicas than `waitForReplicas` confirmed a stored delivery in time. Answered 503; the job runs. */
  | 'replicas_unconfirmed'
  /** The inbox or worker is shutting down and takes no new deliveries. Answered 503. */
  | 'closing'
  /** The handler did not settle within `handlerTimeoutMs`: the attempt failed (and is retried). */
  | 'handler_timeout'
  /** Worker health: a handler outlived its deadline and is still running (it ignores `signal`). */
  | 'handler_stuck'
  /** A job's stored data is not a delivery this package wrote (another producer on the queue?). */
  | 'corrupt_job'
  /**
   * A job's stored bytes do not verify against the worker's `secret` (changed in Redis, or signed
   * with a secret the worker was not given): never run, straight to the failed set.
   */
  | 'signature_rejected'
  /** A completed job: its body was dropped on completion (CLI `show`). */
  | 'body_not_kept'
  /** The handler failed without an Error (a string, `null`, an Error whose message cannot be read). */
  | 'handler_failed'
  /** The event loop was blocked longer than `lockDurationMs` during a run: the job's lock expired. */
  | 'lock_lost'
  /** A walk of a form's submission list failed its attempts (the API refused it, or kept failing). */
  | 'reconcile_failed'
  /** A file of a submission's answers could not be downloaded or stored whole (`copySubmissionFiles`). */
  | 'file_not_copied'
  /** A reconciler was given a `requestBudget` other than the one every reconciler of its queue shares (kept in Redis). */
  | 'budget_mismatch'
  /** No job with that id on the queue (CLI). */
  | 'job_not_found'
  /** The job exists but is not in the failed set, so it cannot be retried (CLI). */
  | 'job_not_failed';

export type InboxErrorContext = Readonly<Record<string, string | number | boolean | undefined>>;

export class InboxError extends BrandedError<InboxErrorKind, InboxErrorContext> {
  static override readonly brand = Symbol.for('@forms-api/webhook-inbox/error');
  override readonly name = 'InboxError';
}

const UNAVAILABLE: ReadonlySet<string> = new Set<InboxErrorKind>([
  'redis_unavailable',
  'redis_read_only',
  'enqueue_timeout',
  'replicas_unconfirmed',
  'closing',
]);

/**
 * True for an InboxError from any copy of this package (by its brand, not `instanceof`), so an
 * error from the ESM build is recognised by the CommonJS one when an application loads both.
 */
export const isInboxError = guardFor(InboxError);

/** The kinds that mean "not now": the delivery was not stored, and Redis or the process is the cause. */
export function isUnavailable(error: unknown): error is InboxError {
  return isInboxError(error) && UNAVAILABLE.has(error.kind);
}
