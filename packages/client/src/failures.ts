// Builds every FormsApiError that follows a request, in one place: the message (what went wrong
// and what to do), the context (operation, url, status, body, headers, attempts), and one
// redaction pass over all of it. The request path only says what happened.
import { askedWait } from '@forms-api/internal/asked-wait';
import { printable } from '@forms-api/internal/printable';
import {
  FormsApiError,
  kindOfStatus,
  type AnswerKind,
  type FormsApiErrorBody,
  type FormsApiErrorContext,
  type FormsApiErrorKind,
  type FormsApiErrorOptions,
} from './errors.js';
import { OPERATIONS, STATUS_DRIFT } from '@forms-api/types';
import { describeOperation, type OperationInfo } from './operations.js';
import { headersRecord, redactDeep, withoutQuerySecrets, type Redact } from './redact.js';
import { pacingGiveUpAdvice, type PacingGiveUp } from './pacing.js';

/** What the errors of one client share; set up once by createFormsClient. */
export interface FailureScope {
  readonly basePath: string;
  readonly redact: Redact;
  readonly now: () => number;
}

/** An error as it is composed here, in one flat object that one pass redacts. */
type ErrorParts = { kind: FormsApiErrorKind; message: string } & Partial<FormsApiErrorContext> &
  Omit<FormsApiErrorOptions, 'context'>;

/** The request that failed: the method and URL sent, and how many attempts were made. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly attempts: number;
}

/**
 * What happened, as the request path saw it, under the public kind of the FormsApiError that
 * `failure()` makes of it: one vocabulary. Internal: never thrown or shown.
 */
export type Failure =
  | { readonly kind: 'aborted' }
  | { readonly kind: 'timeout'; readonly timeoutMs: number; readonly phase: 'headers' | 'body' }
  | { readonly kind: 'network'; readonly cause: unknown; readonly phase: 'headers' | 'body' }
  /** The body passed `maxResponseBytes` (or its Content-Length said it would). */
  | { readonly kind: 'response_too_large'; readonly limit: number; readonly response: Response }
  /**
   * An answer of `kindOfAnswer`: a non-2xx status, or a 2xx whose body is not JSON (`http`).
   * `body` is what openapi-fetch parsed (JSON when it could, else the text).
   */
  | {
      readonly kind: AnswerKind;
      readonly response: Response;
      readonly body: unknown;
      /** Set when `body` is only the start of a longer text (`errorBody`): the text's length. */
      readonly bodyLength?: number;
      readonly pacing?: PacingGiveUp;
    };

/**
 * How much of an error body is parsed and redacted: a 422 listing every field fits, and the work
 * (redaction costs some steps per character) stays bounded whatever the body's size. Errors keep
 * a 300-character excerpt of a text body anyway.
 */
export const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * An error body as openapi-fetch would parse it (JSON when it parses, else the text), or, past
 * `ERROR_BODY_LIMIT`, only its start, as text, and the length it was cut from.
 */
export function errorBody(text: string | undefined): { body: unknown; bodyLength?: number } {
  if (!text) return { body: undefined };
  if (text.length > ERROR_BODY_LIMIT) return { body: text.slice(0, ERROR_BODY_LIMIT), bodyLength: text.length };
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { body: text };
  }
}

/** The kind of a non-2xx answer: its status's, or `plan_required` for a 403 that names another plan. */
export function kindOfAnswer(status: number, parsed: unknown): AnswerKind {
  const body =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as FormsApiErrorBody) : undefined;
  const text = typeof parsed === 'string' ? parsed : undefined;
  if (status === 403 && isPlanRefusal(body, text)) return 'plan_required';
  return kindOfStatus(status);
}

export function failure(scope: FailureScope, sent: SentRequest, what: Failure): FormsApiError {
  const operation = describeOperation(sent.method, sent.url, scope.basePath);
  const label = operationLabel(operation);
  const tries = sent.attempts > 1 ? ` (${sent.attempts} attempts)` : '';
  const base = { operation, url: sent.url, attempts: Math.max(1, sent.attempts) };
  let init: ErrorParts;
  switch (what.kind) {
    case 'aborted':
      init = { ...base, kind: 'aborted', message: `${label} was aborted by the caller's signal; it is not retried.` };
      break;
    case 'timeout':
      init = {
        ...base,
        kind: 'timeout',
        timeoutMs: what.timeoutMs,
        message:
          what.phase === 'headers'
            ? `${label} got no response within ${what.timeoutMs} ms${tries}: the service is slow or unreachable; raise \`timeoutMs\` or try again later.`
            : `${label} timed out after ${what.timeoutMs} ms while reading the response body: raise \`timeoutMs\`.`,
      };
      break;
    case 'network': {
      const cause = summariseCause(what.cause, scope.redact);
      init = {
        ...base,
        kind: 'network',
        cause: cause.error,
        message:
          what.phase === 'headers'
            ? `${label} could not reach ${originOf(sent.url)}${cause.code ? ` (${cause.code})` : ''}${tries}: check \`baseUrl\`, DNS, proxies and the network.`
            : `${label} failed while reading the response: the connection broke; try again.`,
      };
      break;
    }
    case 'response_too_large': {
      const { response, limit } = what;
      const declared = response.headers.get('content-length');
      init = {
        ...base,
        url: response.url || base.url,
        kind: 'response_too_large',
        limit,
        status: response.status,
        headers: headersRecord(response.headers, scope.redact),
        message: `${label} answered ${response.status} with a body larger than \`maxResponseBytes\` (${limit} bytes${declared === null ? '' : `; Content-Length: ${declared}`}), so the client stopped reading it: if the answer really is that large, raise \`maxResponseBytes\`; otherwise check \`baseUrl\` (a wrong host or a broken proxy may send without end).`,
      };
      break;
    }
    default:
      init = what.response.ok
        ? {
            ...base,
            url: what.response.url || base.url,
            kind: 'http',
            status: what.response.status,
            headers: headersRecord(what.response.headers, scope.redact),
            message: `${label} answered with a success status but a body that is not JSON: is \`baseUrl\` the API host (not the web app)?`,
          }
        : statusError(scope, base, what);
      break;
  }
  const { kind, message, cause, body, bodyText, headers, ...context } = redacted(init, scope.redact);
  return new FormsApiError(kind, message, { context, cause, body, bodyText, headers });
}

/** The operation of a request, as errors and `onRetry` name it (redacted like everything else). */
export function operationOf(scope: FailureScope, method: string, url: string): OperationInfo {
  const operation = describeOperation(method, url, scope.basePath);
  return redacted({ kind: 'http', message: '', operation }, scope.redact).operation!;
}

const SNIPPET_LENGTH = 300;

function statusError(
  scope: FailureScope,
  base: { operation: OperationInfo; url: string; attempts: number },
  { kind, response, body: parsed, bodyLength, pacing }: Extract<Failure, { response: Response; body: unknown }>,
): ErrorParts {
  const { status } = response;
  const { operation, attempts } = base;
  // The body is redacted before any of it is cut into the message: a cut through an echoed token
  // would leave a piece the redactor no longer recognises.
  let body: FormsApiErrorBody | undefined;
  let bodyText: string | undefined;
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    body = redactDeep(parsed, scope.redact) as FormsApiErrorBody;
  } else if (typeof parsed === 'string' && parsed.length > 0) {
    const text = scope.redact(parsed.replace(/\s+/g, ' ').trim(), { cut: bodyLength !== undefined });
    bodyText = text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH)}…` : text;
  }
  const retryAfterMs = pacing?.retryAfterMs ?? askedWait(response.headers, scope.now());
  const serverMessage = typeof body?.message === 'string' ? body.message : undefined;
  const head = `${operationLabel(operation)} failed with ${status}${serverMessage ? ` "${clip(serverMessage)}"` : ''}`;
  const explanation = pacing
    ? pacingGiveUpAdvice(pacing)
    : explain(kind, { status, operation, body, bodyText, cut: bodyLength !== undefined, retryAfterMs, attempts }) +
      knownDrift(operation, status);
  const cut =
    bodyLength === undefined
      ? ''
      : ` The body (${bodyLength} characters) is too long to keep: \`err.bodyText\` holds its start.`;
  return {
    ...base,
    url: response.url || base.url,
    kind,
    message: `${head}: ${explanation}${cut}`,
    status,
    body,
    bodyText,
    headers: headersRecord(response.headers, scope.redact),
    retryAfterMs,
  };
}

/**
 * The last redaction pass, over what the error was composed of: its message, URL and operation
 * (whose params are decoded from the URL). Bodies and headers were redacted on the way in. The
 * message quotes the tenant's words (its `message`, field errors, a body's start): once redacted,
 * their control characters are escaped, so logging `err.message` cannot drive a terminal.
 */
function redacted(init: ErrorParts, redact: Redact): ErrorParts {
  const { operation } = init;
  return {
    ...init,
    message: printable(redact(init.message)),
    url: init.url === undefined ? undefined : redact(withoutQuerySecrets(init.url)),
    operation: operation && {
      ...operation,
      path: redact(operation.path),
      params: operation.params && (redactDeep(operation.params, redact) as Record<string, string>),
    },
  };
}

export function operationLabel(op: OperationInfo): string {
  return `${op.method} ${op.path}${op.operationId ? ` (${op.operationId})` : ''}`;
}

/** "form 42", "integration 7 of form 42", "member 3 of workspace 12", or a generic phrase. */
function subjectOf(op: OperationInfo): string {
  const p = op.params ?? {};
  const form = p['form'] ?? p['id'];
  const parts: string[] = [];
  if (p['userId']) parts.push(`member ${p['userId']}`);
  if (p['inviteId']) parts.push(`invitation ${p['inviteId']}`);
  if (p['submission_id']) parts.push(`submission ${p['submission_id']}`);
  if (p['integrationid']) parts.push(`integration ${p['integrationid']}`);
  if (p['filename']) parts.push(`file ${p['filename']}`);
  if (form) parts.push(`form ${form}`);
  if (p['workspaceId']) parts.push(`workspace ${p['workspaceId']}`);
  return parts.length ? parts.join(' of ') : 'the resource';
}

interface Explain {
  status: number;
  operation: OperationInfo;
  body: FormsApiErrorBody | undefined;
  bodyText: string | undefined;
  /** The body was too long to parse: `bodyText` is its start, which says nothing of JSON. */
  cut: boolean;
  retryAfterMs: number | undefined;
  attempts: number;
}

function explain(kind: FormsApiErrorKind, e: Explain): string {
  const subject = subjectOf(e.operation);
  const abilities = e.operation.abilities;
  const tries = e.attempts > 1 ? ` (gave up after ${e.attempts} attempts)` : '';
  switch (kind) {
    case 'unauthenticated':
      return 'the token was not accepted: it is missing, mistyped, expired or revoked. Create a personal access token in the account settings of the service and pass it as the `token` option (without the "Bearer " prefix).';
    case 'missing_ability': {
      if (!abilities || abilities.length === 0)
        return `the service refused the request for ${subject}: ${e.operation.operationId === 'downloadSubmissionFile' ? 'the signed URL has expired or was altered; list the submission again for a fresh `file_url`' : 'the form may be closed, a draft, password-protected or over its submission limit'}.`;
      const named = abilities.map((a) => `\`${a}\``).join(' or ');
      // Read-only members of a workspace pass the read checks only (observed-service §1.3).
      const readOnlyFails = !abilities.some((a) => a.endsWith('-read'));
      const where = /form /.test(subject) ? "that form's workspace" : 'the workspace';
      return `the token lacks the ${named} ability, or its user has no access to ${subject}: create a token with the ${named} ability as a user who is a member${readOnlyFails ? ' (not read-only)' : ''} of ${where}.`;
    }
    case 'not_found': {
      // Not the service's answer about a record (a page of another server, or Laravel's own
      // unknown-route answer to a path under a wrong prefix): the request went to the wrong place.
      const routeUnknown =
        typeof e.body?.message === 'string' && /^The route .* could not be found\.?$/.test(e.body.message);
      if (routeUnknown || (e.body === undefined && e.bodyText !== undefined && !e.cut))
        return `the server at this address does not know the path (${routeUnknown ? 'the framework answers that the route does not exist' : 'its answer is not JSON'}), so the request did not reach the service's API: check \`baseUrl\`: it is the API's root, the address the \`/open/…\` paths follow, without a path of its own.`;
      const form = e.operation.params?.['form'];
      return `${subject} does not exist or is not visible to the token's user: check the id${form !== undefined && !/^\d+$/.test(form) ? ' or slug' : ''}.`;
    }
    case 'validation': {
      const errors = e.body?.errors;
      const list = errors
        ? Object.entries(errors)
            .slice(0, 5)
            // Each field's messages whole up to a bound: a hint at the end of a long one is the fix.
            .map(([field, msgs]) => `${field}: ${clip(Array.isArray(msgs) ? msgs.join(' ') : String(msgs), 400)}`)
            .join('; ')
        : '';
      return `the service rejected the input${list ? ` (${list})` : ''}: fix the listed fields (see \`err.fieldErrors\`).`;
    }
    case 'plan_required': {
      const b = e.body ?? {};
      if (e.status === 403 && !b.required_tier)
        return `the service refused it as a feature of another plan, not for the token's abilities: ${subject.startsWith('workspace ') ? subject : `the workspace of ${subject}`} does not have that feature; upgrade the workspace's plan, or do without the feature${e.operation.operationId === 'listFormSubmissions' ? " (list submissions with `status: 'completed'` or `'all'`, the default, instead of `'partial'`)" : ''}. A new token would not help.`;
      return `the workspace of ${subject} is on the \`${b.current_tier ?? 'current'}\` plan, and ${b.feature ? `the \`${b.feature}\` feature` : 'this feature'} needs \`${b.required_tier ?? 'a higher'}\`: upgrade the workspace's plan or stop using the feature.`;
    }
    case 'rate_limited':
      return `too many requests (the service allows about 100 per minute per user)${e.retryAfterMs !== undefined ? `; the service asks to wait ${Math.ceil(e.retryAfterMs / 1000)} s` : ''}${tries}: slow down, or allow more with \`retry.retries\` / \`retry.maxRetryAfterMs\`.`;
    case 'server':
      return `the service or a proxy in front of it failed${e.bodyText ? ` (body: ${clip(e.bodyText, 120)})` : ''}${tries}: try again later; if it persists, report the time and the operation.`;
    default: {
      const id = e.operation.operationId;
      // A status the spec documents for the operation (an invitation already sent: 400) is an answer, not a surprise.
      if (id && (OPERATIONS[id].statuses as readonly number[]).includes(e.status))
        return `a ${e.status} the spec documents for ${id}: its description says when it comes.`;
      return `unexpected HTTP status ${e.status}${e.bodyText ? ` (body: ${clip(e.bodyText, 120)})` : ''}.`;
    }
  }
}

/**
 * What the drift ledger says of this status from this operation, in its own words: on this service
 * a 422 of an update may also hide a missing ability or an unknown submission, which the
 * contract would answer 403 or 404 (ledger: update-submission-validates-before-authorising).
 */
function knownDrift(operation: OperationInfo, status: number): string {
  const known = STATUS_DRIFT.filter((d) => d.operationId === operation.operationId && d.received.includes(status));
  return known.length === 0
    ? ''
    : ` Known drift of this service (spec/drift.yaml): ${known.map((d) => `${d.advice} (\`${d.id}\`)`).join(' ')}`;
}

// A 403 that says the feature needs another plan is not about the token: no new token helps.
// What a refusal for the plan says (the sandbox and the published contract: "Filtering partial
// submissions is a Pro feature, and workspace 3 is on the free plan"; the 402 of the service:
// `feature`, `required_tier`).
const PLAN_WORDING =
  /\b(?:pro|business|enterprise|premium|paid)\s+(?:feature|plan|tier)\b|\bupgrade\b|\bon the \w+ plan\b|\b(?:plan|tier|subscription)\s+(?:required|needed)\b/i;

function isPlanRefusal(body: FormsApiErrorBody | undefined, bodyText: string | undefined): boolean {
  if (typeof body?.required_tier === 'string') return true;
  const message = typeof body?.message === 'string' ? body.message : bodyText;
  return message !== undefined && PLAN_WORDING.test(message);
}

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the service';
  }
}

/**
 * A copy of a fetch failure that keeps its name, message and code (e.g. ECONNREFUSED) but
 * nothing else: the original may reference the request, and with it the Authorization header.
 * Redacted here rather than in `redacted`: an Error's stack is written once, when it is made.
 */
function summariseCause(error: unknown, redact: Redact): { error: Error; code: string | undefined } {
  const outer = error instanceof Error ? error : new Error(String(error));
  const inner = outer.cause instanceof Error ? outer.cause : undefined;
  const code = codeOf(inner) ?? codeOf(outer);
  const copy = new Error(redact(inner ? `${outer.message}: ${inner.message}` : outer.message));
  copy.name = outer.name;
  if (code) (copy as Error & { code?: string }).code = code;
  return { error: copy, code };
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
