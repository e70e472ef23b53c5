// The one rejection policy shared by every adapter and by webhook-inbox: which HTTP status and
// `{ error, message }` body answer which failure.
import {
  isUsageError,
  isWebhookVerifyError,
  WebhookVerifyError,
  type WebhookRequestKind,
  type WebhookVerificationKind,
  type WebhookVerifyErrorKind,
} from './errors.js';

/** Every `error` value a rejection can carry: the error's `kind`, or `internal_error` for any other error. */
export type RejectionReason = WebhookVerifyErrorKind | 'internal_error';

/**
 * What to answer to a delivery already claimed in the replay store. `acknowledge` (the default):
 * 200 `{ "status": "duplicate" }`, handler not run, since the service never retries and records any
 * non-2xx as an error event on the integration; `reject`: 409 `{ "error": "replayed" }`.
 */
export type DuplicatePolicy = 'acknowledge' | 'reject';

export interface AnswerOptions {
  onDuplicate?: DuplicatePolicy;
}

export interface Rejection {
  /** 200 only for an acknowledged duplicate: the request is not processed, and not refused either. */
  status: 200 | 400 | 401 | 408 | 409 | 413 | 415 | 500 | 503;
  reason: RejectionReason;
  message: string;
  /** Sent as `Retry-After` (503 only). */
  retryAfterSeconds?: number;
}

/** The JSON body of every rejection; an acknowledged duplicate says `status: 'duplicate'` instead. */
export type RejectionBody = { error: RejectionReason; message: string } | { status: 'duplicate'; message: string };

const STATUS: Record<WebhookVerificationKind | WebhookRequestKind, Rejection['status']> = {
  missing_signature: 401,
  malformed_signature: 401,
  signature_mismatch: 401,
  replayed: 409,
  invalid_json: 400,
  invalid_payload: 400,
  unreadable_body: 400,
  body_too_large: 413,
  body_timeout: 408,
  receiver_busy: 503,
  unsupported_content_type: 415,
};

/**
 * 401: missing, malformed or mismatched signature; 409: a replayed delivery (only with
 * `onDuplicate: 'reject'`); 400: a body that is not JSON, not a valid payload, or unreadable; 408:
 * a body not received within `bodyTimeoutMs`; 413: a body over the limit; 415: not
 * `application/json`; 503 with `Retry-After`: the budget of unverified bytes is spent. Anything else is a 500: a misuse (a WebhookVerifyError of a usage kind)
 * means the receiver is misconfigured; any other error is `internal_error`, with a message that
 * says nothing about it (it may hold what the sender must not see).
 */
export function rejectionFor(error: unknown, options: AnswerOptions = {}): Rejection {
  // The guard, not `instanceof`: an error from another copy of this package (its CommonJS build
  // beside this ESM one) is answered alike.
  if (!isWebhookVerifyError(error)) {
    return {
      status: 500,
      reason: 'internal_error',
      message: 'The webhook could not be processed because of an internal error.',
    };
  }
  if (isUsageError(error)) return { status: 500, reason: error.kind, message: error.message };
  const kind = error.kind as WebhookVerificationKind | WebhookRequestKind;
  if (kind === 'replayed' && (options.onDuplicate ?? 'acknowledge') === 'acknowledge') {
    return {
      status: 200,
      reason: 'replayed',
      message:
        'This delivery was already received (its signature is claimed in the replay store); it was not processed again.',
    };
  }
  const { retryAfterSeconds } = error.context;
  return {
    status: STATUS[kind],
    reason: kind,
    message: error.message,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

export function checkDuplicatePolicy(value: unknown): DuplicatePolicy {
  if (value === undefined) return 'acknowledge';
  if (value === 'acknowledge' || value === 'reject') return value;
  throw new WebhookVerifyError(
    'invalid_option',
    `\`onDuplicate\` is 'acknowledge' (200, the default) or 'reject' (409), not ${JSON.stringify(value)}.`,
    { context: { option: 'onDuplicate' } },
  );
}

/** The answer when the receiver's own handler failed after verification: 500 (the service records it as an error event; it does not retry). */
export const HANDLER_FAILED: Rejection = {
  status: 500,
  reason: 'internal_error',
  message: 'The webhook was verified but its handler failed; it was not processed.',
};

/** The `{ error, message }` body of a rejection: the one place its shape is written. */
export function rejectionBody(rejection: Rejection): RejectionBody {
  if (rejection.status === 200) return { status: 'duplicate', message: rejection.message };
  return { error: rejection.reason, message: rejection.message };
}

/** The headers of a rejection: JSON, and `Retry-After` when the sender may try again later. */
export function rejectionHeaders(rejection: Rejection): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (rejection.retryAfterSeconds !== undefined) headers['retry-after'] = String(rejection.retryAfterSeconds);
  return headers;
}
