// The one rejection policy shared by every adapter and by webhook-inbox: which HTTP status and
// `{ error, message }` body answer which failure.
import { WebhookRequestError, WebhookUsageError, WebhookVerificationError, type WebhookRequestReason, type WebhookUsageCode, type WebhookVerificationReason } from './errors.js';

/** Every `error` value a rejection can carry. */
export type RejectionReason = WebhookVerificationReason | WebhookRequestReason | WebhookUsageCode | 'internal_error';

export interface Rejection {
  status: 400 | 401 | 408 | 409 | 413 | 415 | 500 | 503;
  reason: RejectionReason;
  message: string;
  /** Sent as `Retry-After` (503 only). */
  retryAfterSeconds?: number;
}

/** The JSON body of every rejection. */
export interface RejectionBody {
  error: RejectionReason;
  message: string;
}

const STATUS: Record<WebhookVerificationReason | WebhookRequestReason, Rejection['status']> = {
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
 * `application/json`; 503 with `Retry-After`: the budget of unverified bytes is spent. Anything else is a 500: a misuse (`WebhookUsageError`, reason = its code)
 * means the receiver is misconfigured; any other error is `internal_error`, with a message that
 * says nothing about it (it may hold what the sender must not see).
 */
export function rejectionFor(error: unknown): Rejection {
  if (error instanceof WebhookRequestError && error.context.retryAfterSeconds !== undefined) {
    return { status: STATUS[error.reason], reason: error.reason, message: error.message, retryAfterSeconds: error.context.retryAfterSeconds };
  }
  if (error instanceof WebhookVerificationError || error instanceof WebhookRequestError) {
    return { status: STATUS[error.reason], reason: error.reason, message: error.message };
  }
  if (error instanceof WebhookUsageError) return { status: 500, reason: error.code, message: error.message };
  return { status: 500, reason: 'internal_error', message: 'The webhook could not be processed because of an internal error.' };
}

/** The answer when the receiver's own handler failed after verification: 500, so the sender retries. */
export const HANDLER_FAILED: Rejection = { status: 500, reason: 'internal_error', message: 'The webhook was verified but its handler failed; it was not processed.' };

/** The `{ error, message }` body of a rejection: the one place its shape is written. */
export function rejectionBody(rejection: Rejection): RejectionBody {
  return { error: rejection.reason, message: rejection.message };
}

/** The headers of a rejection: JSON, and `Retry-After` when the sender may try again later. */
export function rejectionHeaders(rejection: Rejection): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (rejection.retryAfterSeconds !== undefined) headers['retry-after'] = String(rejection.retryAfterSeconds);
  return headers;
}
