// FormsApiError: the one error type the client throws. Each has a `kind` to branch on, a message
// that names the likely cause and the fix, and the context (status, body, operation, headers);
// none of it ever holds the token.
import type { OperationInfo } from './operations.js';
import { headersRecord, redactDeep, type Redact } from './redact.js';

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

export function isFormsApiError(value: unknown): value is FormsApiError {
  return value instanceof FormsApiError;
}

export function invalidOption(option: string, message: string): FormsApiError {
  return new FormsApiError({ kind: 'invalid_options', option, message: `Invalid \`${option}\`: ${message}` });
}

const SNIPPET_LENGTH = 300;

export interface ResponseErrorContext {
  status: number;
  /** What openapi-fetch parsed: JSON when it could, else the text. */
  error: unknown;
  headers: Headers;
  url: string;
  operation: OperationInfo;
  attempts: number;
  redact: Redact;
  now: number;
}

/** Maps a non-2xx response to a FormsApiError with a message that explains it. */
export function errorFromResponse(ctx: ResponseErrorContext): FormsApiError {
  const { status, operation, redact } = ctx;
  let body: FormsApiErrorBody | undefined;
  let bodyText: string | undefined;
  if (ctx.error !== null && typeof ctx.error === 'object' && !Array.isArray(ctx.error)) {
    body = redactDeep(ctx.error, redact) as FormsApiErrorBody;
  } else if (typeof ctx.error === 'string' && ctx.error.length > 0) {
    const text = redact(ctx.error.replace(/\s+/g, ' ').trim());
    bodyText = text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH)}…` : text;
  }
  const kind = kindOfStatus(status);
  const retryAfterMs = parseRetryAfter(ctx.headers.get('retry-after'), ctx.now);
  const serverMessage = typeof body?.message === 'string' ? body.message : undefined;
  const head = `${operationLabel(operation)} failed with ${status}${serverMessage ? ` "${clip(serverMessage)}"` : ''}`;
  const explanation = explain(kind, { status, operation, body, bodyText, retryAfterMs, attempts: ctx.attempts });
  return new FormsApiError({
    kind,
    message: redact(`${head}: ${explanation}`),
    status,
    body,
    bodyText,
    operation,
    url: redact(ctx.url),
    headers: headersRecord(ctx.headers, redact),
    retryAfterMs,
    attempts: ctx.attempts,
  });
}

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

export function operationLabel(op: OperationInfo): string {
  return `${op.method} ${op.path}${op.operationId ? ` (${op.operationId})` : ''}`;
}

/** "form 42", "integration 7 of form 42", "workspace 12", or a generic phrase. */
function subjectOf(op: OperationInfo): string {
  const p = op.params ?? {};
  const form = p['form'] ?? p['id'];
  const parts: string[] = [];
  if (p['submission_id']) parts.push(`submission ${p['submission_id']}`);
  if (p['integrationid']) parts.push(`integration ${p['integrationid']}`);
  if (form) parts.push(`form ${form}`);
  if (p['workspaceId']) parts.push(`workspace ${p['workspaceId']}`);
  return parts.length ? parts.join(' of ') : 'the resource';
}

interface Explain {
  status: number;
  operation: OperationInfo;
  body: FormsApiErrorBody | undefined;
  bodyText: string | undefined;
  retryAfterMs: number | undefined;
  attempts: number;
}

function explain(kind: FormsApiErrorKind, e: Explain): string {
  const subject = subjectOf(e.operation);
  const ability = e.operation.ability;
  const tries = e.attempts > 1 ? ` (gave up after ${e.attempts} attempts)` : '';
  switch (kind) {
    case 'unauthenticated':
      return 'the token was not accepted: it is missing, mistyped, expired or revoked. Create a personal access token in the account settings of the service and pass it as the `token` option (without the "Bearer " prefix).';
    case 'missing_ability':
      if (!ability)
        return `the service refused the request for ${subject}: the form may be closed, a draft, password-protected or over its submission limit.`;
      return `the token lacks the \`${ability}\` ability, or its user has no access to ${subject}: create a token with the \`${ability}\` ability as a user who is a member${ability === 'manage-integrations' ? ' (not read-only)' : ''} of that form's workspace.`;
    case 'not_found':
      return `${subject} does not exist or is not visible to the token's user: check the id${e.operation.params?.['form'] !== undefined && ability !== 'manage-integrations' ? ' or slug' : ''}.`;
    case 'validation': {
      const errors = e.body?.errors;
      const list = errors
        ? Object.entries(errors)
            .slice(0, 5)
            .map(([field, msgs]) => `${field}: ${Array.isArray(msgs) ? msgs.join(' ') : String(msgs)}`)
            .join('; ')
        : '';
      return `the service rejected the input${list ? ` (${clip(list)})` : ''}: fix the listed fields (see \`err.fieldErrors\`).`;
    }
    case 'plan_required': {
      const b = e.body ?? {};
      return `the workspace of ${subject} is on the \`${b.current_tier ?? 'current'}\` plan, and ${b.feature ? `the \`${b.feature}\` feature` : 'this feature'} needs \`${b.required_tier ?? 'a higher'}\`: upgrade the workspace's plan or stop using the feature.`;
    }
    case 'rate_limited':
      return `too many requests (the service allows about 100 per minute per user)${e.retryAfterMs !== undefined ? `; the service asks to wait ${Math.ceil(e.retryAfterMs / 1000)} s` : ''}${tries}: slow down, or allow more with \`retry.retries\` / \`retry.maxRetryAfterMs\`.`;
    case 'server':
      return `the service or a proxy in front of it failed${e.bodyText ? ` (body: ${clip(e.bodyText, 120)})` : ''}${tries}: try again later; if it persists, report the time and the operation.`;
    default:
      return `unexpected HTTP status ${e.status}${e.bodyText ? ` (body: ${clip(e.bodyText, 120)})` : ''}.`;
  }
}

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Milliseconds to wait from a `Retry-After` value: delta-seconds or an HTTP date
 * (RFC 9110 §10.2.3). Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
