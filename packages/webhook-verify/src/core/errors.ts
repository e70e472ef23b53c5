// The package's one error type, WebhookVerifyError: a `kind` for a failed verification, a request
// refused before verification, or a programming mistake that must surface at once (never a `false`).
import { BrandedError, guardFor, type ErrorInit } from '@forms-api/internal';

/** Why a delivery failed verification; answered 401, 409 or 400 by `rejectionFor`. */
export type WebhookVerificationKind =
  /** No X-Webhook-Signature header: the integration has no `webhook_secret`, or the sender is not the service. */
  | 'missing_signature'
  /** The header is not `sha256=` followed by 64 lowercase hex digits. */
  | 'malformed_signature'
  /** The signature does not match the body: most often a re-serialised body, otherwise another secret. */
  | 'signature_mismatch'
  /** The signature is already claimed in the replay store: a duplicate or a replay. */
  | 'replayed'
  /** Signed correctly, but the body is not JSON. */
  | 'invalid_json'
  /** Signed correctly, but the body is not a submission.created payload; `context.problems` says where. */
  | 'invalid_payload';

/** Why a request was refused before its signature could be checked (the adapters read the body). */
export type WebhookRequestKind =
  /** Not `application/json`; `context.contentType` is what was sent. */
  | 'unsupported_content_type'
  /** The body is over `maxBodyBytes`; `context.limit` is the limit in bytes. */
  | 'body_too_large'
  /** The body did not arrive within `bodyTimeoutMs`; `context.timeoutMs` is the deadline. */
  | 'body_timeout'
  /** The budget of unverified bytes held at once is spent; `context.retryAfterSeconds` says when to retry. */
  | 'receiver_busy'
  /** The connection closed or the stream failed before the body's end. */
  | 'unreadable_body';

/** A misuse of the API: a bug in the receiver, thrown at once and answered 500. */
export type WebhookUsageKind =
  /** A parsed object, a missing body, or a body another middleware already read. */
  | 'invalid_body'
  /** An empty, padded or non-string secret. */
  | 'invalid_secret'
  /** A wrong option; `context.option` names it. */
  | 'invalid_option'
  /** The runtime has no Web Crypto (`crypto.subtle`: a browser page served over http, an old runtime); the web build needs it. */
  | 'unsupported_runtime';

/** Every kind of WebhookVerifyError. */
export type WebhookVerifyErrorKind = WebhookVerificationKind | WebhookRequestKind | WebhookUsageKind;

/** What an error was judged by; only the fields of its kind are set. Never holds a secret or a signature. */
export interface WebhookVerifyErrorContext {
  /** `unsupported_content_type`: the Content-Type received (`null` when there was none). */
  readonly contentType?: string | null;
  /** `body_too_large`: the limit in bytes. */
  readonly limit?: number;
  /** `body_timeout`: the deadline in milliseconds. */
  readonly timeoutMs?: number;
  /** `receiver_busy`: when a retry can expect the held bodies to be gone. */
  readonly retryAfterSeconds?: number;
  /** `invalid_payload`: the schema problems, as `path message` lines. */
  readonly problems?: readonly string[];
  /** `invalid_option`: the option that was wrong. */
  readonly option?: string;
  /**
   * `signature_mismatch` from an adapter: who read the body it verified, the adapter itself (the
   * exact bytes sent, so the secret is the likely cause) or a body parser that ran before it.
   */
  readonly bodyReadBy?: BodyReader;
}

/** Who read a request's body before its signature was checked: the adapter, or a body parser before it (`express.raw()`, `express.text()`, a Fastify parser of your own). */
export type BodyReader = 'adapter' | 'body_parser';

const ADVICE: Record<WebhookVerificationKind, string> = {
  missing_signature:
    'The request has no X-Webhook-Signature header. The service only signs requests of integrations that have a secret: set `webhook_secret` on the integration (or check that this request really comes from the service).',
  malformed_signature:
    'The X-Webhook-Signature header is not `sha256=` followed by 64 lowercase hex digits. Pass the header value exactly as received.',
  signature_mismatch:
    'The signature does not match the body. Most often the body was parsed and re-serialised before verifying: verify the raw request body, byte for byte (for example `express.raw({ type: "application/json" })`, `await request.arrayBuffer()`, or the adapters of this package, which read it for you), never `JSON.stringify(req.body)`. Otherwise the secret differs from the integration\'s `webhook_secret`.',
  replayed:
    'This delivery (its signature) is already claimed: it was processed within the replay window, or is being processed now. It is a duplicate or a replay; treat it as already processed.',
  invalid_json: 'The signature is valid but the body is not JSON.',
  invalid_payload: 'The signature is valid but the body does not match the submission.created schema.',
};

// What an adapter knows of a mismatch: who read the bytes it verified.
const MISMATCH_ADVICE: Record<BodyReader, string> = {
  adapter:
    "The signature does not match the body. The adapter read the raw request bytes itself, so nothing re-serialised them: the secret is most likely not the integration's `webhook_secret` (an old one, another integration's, or a variable that holds something else), or the request was not signed by the service.",
  body_parser:
    "The signature does not match the body. A body parser ran before the verifier and handed it the body (`express.raw()`, `express.text()` or a parser of your own): if it changed the bytes (text decoded and re-encoded, a BOM dropped), mount the verifier before any body parser so that it reads the raw bytes itself; if it kept them exact, the secret is most likely not the integration's `webhook_secret`.",
};

const USAGE_KINDS: ReadonlySet<string> = new Set<WebhookUsageKind>([
  'invalid_body',
  'invalid_secret',
  'invalid_option',
  'unsupported_runtime',
]);

type Options = ErrorInit<WebhookVerifyErrorContext>;

/**
 * The one error of this package. Branch on `kind`; recognise it with `isWebhookVerifyError`
 * (works across module copies), and answer it over HTTP with `rejectionFor`.
 */
export class WebhookVerifyError extends BrandedError<WebhookVerifyErrorKind, WebhookVerifyErrorContext> {
  // Symbol.for: the same symbol in every copy of the package (ESM and CJS builds, two installed
  // versions), so the guard recognises an error that `instanceof` of another copy would not.
  static override readonly brand = Symbol.for('@forms-api/webhook-verify/error');
  override readonly name = 'WebhookVerifyError';

  // The one shape of every error of the toolkit: kind, message, then context and cause. The
  // verification and request kinds have their message written from the kind: `verificationError`.
}

/** A verification or request error, its message written from the kind and its context. */
export function verificationError(
  kind: WebhookVerificationKind | WebhookRequestKind,
  init: Options = {},
): WebhookVerifyError {
  return new WebhookVerifyError(kind, messageFor(kind, init.context ?? {}), init);
}

/** True for a WebhookVerifyError from any copy of this package (ESM, CommonJS, another version). */
export const isWebhookVerifyError = guardFor(WebhookVerifyError);

/** True for a misuse (`invalid_body`, `invalid_secret`, `invalid_option`, `unsupported_runtime`): a bug to fix, not a bad request. */
export function isUsageError(value: unknown): value is WebhookVerifyError & { kind: WebhookUsageKind } {
  return isWebhookVerifyError(value) && USAGE_KINDS.has(value.kind);
}

function messageFor(kind: WebhookVerificationKind | WebhookRequestKind, context: WebhookVerifyErrorContext): string {
  switch (kind) {
    case 'unsupported_content_type':
      return `Webhook requests are sent as application/json; this one is ${context.contentType ? `\`${context.contentType}\`` : 'without a Content-Type'}.`;
    case 'body_too_large':
      return `The webhook body is larger than ${context.limit} bytes; raise \`maxBodyBytes\` if such payloads are expected.`;
    case 'body_timeout':
      return `The webhook body did not arrive within ${context.timeoutMs} ms (\`bodyTimeoutMs\`); the service sends its whole body at once and gives up after 5 s.`;
    case 'receiver_busy':
      return `The receiver holds as many unverified bodies as its budget allows (\`bodyBudget\`); retry after ${context.retryAfterSeconds} s.`;
    case 'unreadable_body':
      return 'The webhook body could not be read (the connection was closed or the stream failed before its end).';
    default: {
      const problems = context.problems?.length ? ` Problems: ${context.problems.join('; ')}` : '';
      const advice =
        kind === 'signature_mismatch' && context.bodyReadBy ? MISMATCH_ADVICE[context.bodyReadBy] : ADVICE[kind];
      return `Webhook verification failed (${kind}): ${advice}${problems}`;
    }
  }
}
