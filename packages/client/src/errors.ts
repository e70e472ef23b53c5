// FormsApiError: the one error type the client throws. Each has a `kind` to branch on, a message
// that names the likely cause and the fix, and the context (status, body, operation, headers);
// none of it ever holds the token. Errors of a request are built by failures.ts. isFormsApiError
// recognises one from any copy of the package (ESM beside CommonJS) by a Symbol.for brand.
import { BrandedError, guardFor } from '@forms-api/internal';
import type { OperationInfo } from './operations.js';

/** The kinds of an answer the client cannot hand on: a non-2xx status's, or `http` for a 2xx that is not JSON. */
export type AnswerKind =
  | 'unauthenticated'
  | 'missing_ability'
  | 'not_found'
  | 'validation'
  | 'plan_required'
  | 'rate_limited'
  | 'server'
  | 'http';

export type FormsApiErrorKind =
  AnswerKind | 'network' | 'timeout' | 'response_too_large' | 'aborted' | 'invalid_option' | 'pagination';

/** The parsed error body: `message`, plus `errors` (422) or plan fields (402) when present. */
export interface FormsApiErrorBody {
  message?: string;
  errors?: Record<string, string[]>;
  feature?: string;
  required_tier?: string;
  current_tier?: string;
  [key: string]: unknown;
}

/**
 * What an error was judged by, in one read-only object (the error's `status`, `operation`, `url`,
 * `attempts`, `retryAfterMs` and `option` read it); only what applies to its kind is set. Never
 * holds the token.
 */
export interface FormsApiErrorContext {
  /** The HTTP status of the answer, when there was one. */
  readonly status?: number;
  /** The operation called (`{ method, path, operationId, abilities, params }`). */
  readonly operation?: OperationInfo;
  /** The URL called (redacted; the answer's URL after a redirect). */
  readonly url?: string;
  /** How many attempts were made (0 when the call never started). */
  readonly attempts: number;
  /** `rate_limited` and other retryable statuses: how long the service asked to wait. */
  readonly retryAfterMs?: number;
  /** `invalid_option`: the option or argument that was wrong. */
  readonly option?: string;
  /** `response_too_large`: the limit (`maxResponseBytes`) in bytes. */
  readonly limit?: number;
  /** `timeout`: the deadline (`timeoutMs`) in milliseconds. */
  readonly timeoutMs?: number;
}

/**
 * How a FormsApiError is constructed, the one way of every error of the toolkit
 * (`new XxxError(kind, message, { context, cause })`), with what the answer held besides.
 */
export interface FormsApiErrorOptions {
  /** What the error was judged by; `attempts` is 0 when not given. */
  readonly context?: Partial<FormsApiErrorContext>;
  readonly cause?: unknown;
  /** The parsed error body of the answer, when it was JSON. */
  readonly body?: FormsApiErrorBody;
  /** A truncated snippet of a body that was not JSON (an HTML page from a proxy). */
  readonly bodyText?: string;
  /** The answer's headers, redacted. */
  readonly headers?: Record<string, string>;
}

export class FormsApiError extends BrandedError<FormsApiErrorKind, FormsApiErrorContext> {
  // Symbol.for: the same symbol in every copy of the package, where `instanceof` sees only its own class.
  static override readonly brand = Symbol.for('@forms-api/client/error');
  override readonly name = 'FormsApiError';
  readonly body: FormsApiErrorBody | undefined;
  readonly bodyText: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    kind: FormsApiErrorKind,
    message: string,
    { context = {}, cause, body, bodyText, headers = {} }: FormsApiErrorOptions = {},
  ) {
    // The fields below read the frozen `context`, so each value is stored once.
    super(kind, message, { cause, context: definedOnly({ ...context, attempts: context.attempts ?? 0 }) });
    this.body = body;
    this.bodyText = bodyText;
    this.headers = headers;
  }

  get status(): number | undefined {
    return this.context.status;
  }

  get operation(): OperationInfo | undefined {
    return this.context.operation;
  }

  get url(): string | undefined {
    return this.context.url;
  }

  get retryAfterMs(): number | undefined {
    return this.context.retryAfterMs;
  }

  get attempts(): number {
    return this.context.attempts;
  }

  get option(): string | undefined {
    return this.context.option;
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
export function kindOfStatus(status: number): AnswerKind {
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

/** True for a FormsApiError from any copy of this package (ESM, CommonJS, another version). */
export const isFormsApiError = guardFor(FormsApiError);

function definedOnly<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

export function invalidOption(option: string, message: string): FormsApiError {
  return new FormsApiError('invalid_option', `Invalid \`${option}\`: ${message}`, { context: { option } });
}
