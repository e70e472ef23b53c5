// FormsApiError: the one error type the client throws. Each has a `kind` to branch on, a message
// that names the likely cause and the fix, and the context (status, body, operation, headers);
// none of it ever holds the token. Errors of a request are built by failures.ts.
import type { OperationInfo } from './operations.js';

export type FormsApiErrorKind =
  | 'unauthenticated'
  | 'missing_ability'
  | 'not_found'
  | 'validation'
  | 'plan_required'
  | 'rate_limited'
  | 'server'
  | 'http'
  | 'network'
  | 'timeout'
  | 'response_too_large'
  | 'aborted'
  | 'invalid_options'
  | 'pagination';

/** The parsed error body: `message`, plus `errors` (422) or plan fields (402) when present. */
export interface FormsApiErrorBody {
  message?: string;
  errors?: Record<string, string[]>;
  feature?: string;
  required_tier?: string;
  current_tier?: string;
  [key: string]: unknown;
}

export interface FormsApiErrorInit {
  kind: FormsApiErrorKind;
  message: string;
  status?: number;
  body?: FormsApiErrorBody;
  /** A truncated snippet of a body that was not JSON (an HTML page from a proxy). */
  bodyText?: string;
  operation?: OperationInfo;
  url?: string;
  headers?: Record<string, string>;
  retryAfterMs?: number;
  attempts?: number;
  /** For `invalid_options`: the option or argument that was wrong. */
  option?: string;
  cause?: unknown;
}

export class FormsApiError extends Error {
  override readonly name = 'FormsApiError';
  readonly kind: FormsApiErrorKind;
  readonly status: number | undefined;
  readonly body: FormsApiErrorBody | undefined;
  readonly bodyText: string | undefined;
  readonly operation: OperationInfo | undefined;
  readonly url: string | undefined;
  readonly headers: Record<string, string>;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;
  readonly option: string | undefined;

  constructor(init: FormsApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.body = init.body;
    this.bodyText = init.bodyText;
    this.operation = init.operation;
    this.url = init.url;
    this.headers = init.headers ?? {};
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts ?? 0;
    this.option = init.option;
  }

  /** The validation messages of a 422, keyed by input (empty for other kinds). */
  get fieldErrors(): Record<string, string[]> {
    return this.body?.errors ?? {};
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      status: this.status,
      operation: this.operation,
      url: this.url,
      attempts: this.attempts,
      retryAfterMs: this.retryAfterMs,
      body: this.body,
      bodyText: this.bodyText,
      headers: this.headers,
      option: this.option,
    };
  }
}

/** The kind of error an HTTP status is. */
export function kindOfStatus(status: number): FormsApiErrorKind {
  switch (status) {
    case 401:
      return 'unauthenticated';
    case 402:
      return 'plan_required';
    case 403:
      return 'missing_ability';
    case 404:
      return 'not_found';
    case 422:
      return 'validation';
    case 429:
      return 'rate_limited';
    default:
      return status >= 500 ? 'server' : 'http';
  }
}

export function isFormsApiError(value: unknown): value is FormsApiError {
  return value instanceof FormsApiError;
}

export function invalidOption(option: string, message: string): FormsApiError {
  return new FormsApiError({ kind: 'invalid_options', option, message: `Invalid \`${option}\`: ${message}` });
}
