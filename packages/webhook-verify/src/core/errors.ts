// The package's error types: verification outcomes a receiver handles (reason codes), requests
// refused before verification (content type, size, unreadable body), and programming mistakes
// that must surface at once instead of as a silent `false`.

/** Why a webhook request was rejected. */
export type WebhookVerificationReason =
  'missing_signature' | 'malformed_signature' | 'signature_mismatch' | 'replayed' | 'invalid_json' | 'invalid_payload';

const ADVICE: Record<WebhookVerificationReason, string> = {
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

/** A webhook request that failed verification; `reason` is machine-readable. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationReason;
  /** Schema errors for `invalid_payload`, as `path message` lines. */
  readonly details: readonly string[];

  constructor(reason: WebhookVerificationReason, options: { details?: readonly string[]; cause?: unknown } = {}) {
    super(
      `Webhook verification failed (${reason}): ${ADVICE[reason]}${options.details?.length ? ` Problems: ${options.details.join('; ')}` : ''}`,
      {
        cause: options.cause,
      },
    );
    this.reason = reason;
    this.details = options.details ?? [];
  }
}

/** Why a request was refused before its signature could be checked. */
export type WebhookRequestReason =
  'unsupported_content_type' | 'body_too_large' | 'body_timeout' | 'receiver_busy' | 'unreadable_body';

/** What a refused request was judged by. */
export interface WebhookRequestContext {
  contentType?: string | null | undefined;
  /** `body_too_large`: the limit in bytes. */
  limit?: number;
  /** `body_timeout`: the deadline in milliseconds. */
  timeoutMs?: number;
  /** `receiver_busy`: when a retry can expect the held bodies to be gone. */
  retryAfterSeconds?: number;
}

/**
 * A webhook request refused before verification: wrong content type, a body over the limit, not
 * received within the deadline, over the budget of bytes held at once, or unreadable.
 */
export class WebhookRequestError extends Error {
  override readonly name = 'WebhookRequestError';
  readonly reason: WebhookRequestReason;
  readonly context: WebhookRequestContext;

  constructor(reason: 'unsupported_content_type', context: { contentType: string | null | undefined });
  constructor(reason: 'body_too_large', context: { limit: number });
  constructor(reason: 'body_timeout', context: { timeoutMs: number });
  constructor(reason: 'receiver_busy', context: { retryAfterSeconds: number });
  constructor(reason: 'unreadable_body', context: { cause: unknown });
  constructor(reason: WebhookRequestReason, context: WebhookRequestContext & { cause?: unknown }) {
    super(requestMessage(reason, context), { cause: context.cause });
    this.reason = reason;
    const { cause: _cause, ...rest } = context;
    this.context = rest;
  }
}

function requestMessage(reason: WebhookRequestReason, context: WebhookRequestContext): string {
  switch (reason) {
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
  }
}

/** Why a call was a programming mistake. */
export type WebhookUsageCode = 'invalid_body' | 'invalid_secret' | 'invalid_option';

/** A misuse of the API (a parsed body, an empty secret, a wrong option…): thrown immediately, never a `false`. */
export class WebhookUsageError extends TypeError {
  override readonly name = 'WebhookUsageError';
  readonly code: WebhookUsageCode;

  constructor(code: WebhookUsageCode, message: string) {
    super(message);
    this.code = code;
  }
}
