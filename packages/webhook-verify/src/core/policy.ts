// The one rejection policy shared by every adapter: which HTTP status answers which failure.
import { WebhookUsageError, WebhookVerificationError } from './errors.js';

export interface Rejection {
  status: 400 | 401 | 409 | 413 | 415 | 500;
  reason: string;
  message: string;
}

export const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/**
 * 401: missing, malformed or mismatched signature; 409: a replayed signature; 400: a body that is
 * not JSON or not a valid payload; 413: a body over the limit; 415: not `application/json`.
 * Anything else (a misuse such as an empty secret) is a 500: the receiver is misconfigured.
 */
export function rejectionFor(error: unknown): Rejection {
  if (error instanceof WebhookVerificationError) {
    const status = error.reason === 'replayed' ? 409 : error.reason === 'invalid_json' || error.reason === 'invalid_payload' ? 400 : 401;
    return { status, reason: error.reason, message: error.message };
  }
  if (error instanceof BodyTooLargeError) return { status: 413, reason: 'body_too_large', message: error.message };
  if (error instanceof UnsupportedContentTypeError) return { status: 415, reason: 'unsupported_content_type', message: error.message };
  if (error instanceof UnreadableBodyError) return { status: 400, reason: 'unreadable_body', message: error.message };
  if (error instanceof WebhookUsageError) return { status: 500, reason: error.code, message: error.message };
  return { status: 500, reason: 'internal_error', message: 'The webhook could not be verified because of an internal error.' };
}

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(limit: number) {
    super(`The webhook body is larger than ${limit} bytes; raise \`maxBodyBytes\` if such payloads are expected.`);
  }
}

export class UnsupportedContentTypeError extends Error {
  override readonly name = 'UnsupportedContentTypeError';
  constructor(contentType: string | null | undefined) {
    super(`Webhook requests are sent as application/json; this one is ${contentType ? `\`${contentType}\`` : 'without a Content-Type'}.`);
  }
}

export class UnreadableBodyError extends Error {
  override readonly name = 'UnreadableBodyError';
  constructor(cause: unknown) {
    super('The webhook body could not be read.', { cause });
  }
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
