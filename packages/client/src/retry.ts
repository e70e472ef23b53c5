// The retry policy: its options, and as pure functions whether an attempt is sent again and
// after how long (full-jitter exponential backoff, or the wait the service asks for).
import { kindOfStatus, type FormsApiErrorKind } from './errors.js';
import type { OperationInfo } from './operations.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 2, so at most 3 attempts). */
  retries?: number;
  /** Backoff base: the first retry waits up to this long (full jitter; default 300 ms). */
  baseDelayMs?: number;
  /** Cap of the exponential backoff (default 10 s). */
  maxDelayMs?: number;
  /** The longest wait the service may ask for (`Retry-After`, else `X-RateLimit-Reset`) that is honoured; a longer one is not waited for (default 60 s). */
  maxRetryAfterMs?: number;
  /** HTTP statuses retried (default 408, 429, 502, 503, 504). Network errors and timeouts always are. */
  retryOn?: readonly number[];
  /**
   * Also send again what may act twice: a POST, and an update (PUT) that may have reached the
   * service (the service re-runs an update's side effects, such as its webhooks). Off by
   * default: an update is then sent again only after a refused connection or a 429.
   */
  unsafe?: boolean;
  /**
   * Called before each retry's wait, with why and for how long. Return `false` to retry no more:
   * the call then fails with the error of the attempt that was just made. It may be async; it
   * cannot change the wait (use `maxRetryAfterMs` and `maxDelayMs`). An exception it throws ends
   * the call with that exception.
   */
  onRetry?: (event: RetryEvent) => boolean | void | Promise<boolean | void>;
}

/** What `onRetry` is told about a retry the client is about to make. */
export interface RetryEvent {
  /** The attempt that failed: 1 for the first send. The next is `attempt + 1`. */
  readonly attempt: number;
  /** The kind of error that attempt would have thrown: `network`, `timeout`, or a status's kind (`rate_limited`, `server`, `http`). */
  readonly reason: FormsApiErrorKind;
  /** The status that is retried, for a status. */
  readonly status?: number;
  /** How long the client waits before the next attempt. */
  readonly delayMs: number;
  /** Whether `delayMs` is the wait the service asked for (`Retry-After`, else `X-RateLimit-Reset`; else the backoff). */
  readonly retryAfter: boolean;
  /** The operation being retried (method, path, operationId, params), as errors name it. */
  readonly operation: OperationInfo;
}

/** `RetryOptions` with every default applied: what a decision reads. */
export type ResolvedRetry = Readonly<
  Required<Omit<RetryOptions, 'retryOn' | 'onRetry'>> & {
    retryOn: ReadonlySet<number>;
    onRetry: RetryOptions['onRetry'];
  }
>;

/** Full-jitter exponential backoff: uniform in [0, min(cap, base·2^(n-1))). */
export function backoff(
  retry: { readonly baseDelayMs: number; readonly maxDelayMs: number },
  retryNumber: number,
  random: () => number,
): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (retryNumber - 1));
  return Math.floor(random() * ceiling);
}

/** What an attempt ended in, as far as retrying it is concerned. */
export type AttemptOutcome =
  /** No answer: `reached` when the request may have reached the service (it was sent). */
  | { readonly kind: 'network' | 'timeout'; readonly reached: boolean }
  /** A non-2xx answer, with the wait it asks for (`askedWait`), if any. */
  | { readonly kind: 'status'; readonly status: number; readonly askedWaitMs: number | undefined };

export type RetryDecision =
  | { readonly retry: false }
  | {
      readonly retry: true;
      /** The kind of error the attempt would have thrown. */
      readonly reason: FormsApiErrorKind;
      readonly status?: number;
      readonly delayMs: number;
      /** Whether `delayMs` is the wait the service asked for (`askedWait`; else the backoff). */
      readonly retryAfter: boolean;
    };

// RFC 9110 idempotent methods: a repeat has the same effect on the resource as one send.
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

const NO: RetryDecision = { retry: false };

/** Whether to send again after attempt number `attempt`, and after how long. */
export function decideRetry(
  policy: ResolvedRetry | false,
  method: string,
  attempt: number,
  outcome: AttemptOutcome,
  random: () => number,
): RetryDecision {
  if (!policy || attempt > policy.retries) return NO;
  if (!IDEMPOTENT.has(method) && !policy.unsafe) return NO;
  if (method === 'PUT' && !policy.unsafe && !unprocessed(outcome)) return NO;
  if (outcome.kind !== 'status')
    return { retry: true, reason: outcome.kind, delayMs: backoff(policy, attempt, random), retryAfter: false };
  const { status } = outcome;
  if (!policy.retryOn.has(status)) return NO;
  const reason = kindOfStatus(status);
  const asked = outcome.askedWaitMs;
  if (asked === undefined)
    return { retry: true, reason, status, delayMs: backoff(policy, attempt, random), retryAfter: false };
  // A longer wait than allowed is not shortened: it would only earn another refusal.
  return asked <= policy.maxRetryAfterMs ? { retry: true, reason, status, delayMs: asked, retryAfter: true } : NO;
}

/**
 * Whether the attempt certainly had no effect: it never reached the service (the connection was
 * refused), or the service refused it before running it (429, from its rate limiter). A PUT is
 * idempotent on the resource, but the service re-runs an update's side effects (it sends the
 * submission's webhooks again: ledger entry `update-submission-emits-webhook`), so an update that
 * may have reached it is not sent again unless the caller opts in with `unsafe`.
 */
function unprocessed(outcome: AttemptOutcome): boolean {
  return outcome.kind === 'status' ? outcome.status === 429 : !outcome.reached;
}
