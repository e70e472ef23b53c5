// The one request path: every call, helper or raw, goes through openapi-fetch with a fetch of
// its own, made here. That fetch owns the attempts: pacing, each attempt's timeout (on the
// client's Clock), the body cap, reading the answer, and retries, decided by the pure functions
// of retry.ts. It returns an answer or throws a typed FormsApiError. Re-sending a request is not
// something middleware can do (it sees one send); a custom fetch is where openapi-fetch's
// maintainers point for it.
import { askedWait } from '@forms-api/internal/asked-wait';
import { checkDeclaredLength, limitBody, readCapped, withBody } from './body-limit.js';
import type { ResolvedClock } from './clock.js';
import { isFormsApiError, type FormsApiError } from './errors.js';
import { errorBody, failure, kindOfAnswer, operationOf, type Failure, type FailureScope } from './failures.js';
import type { ResolvedCall, ResolvedOptions } from './options.js';
import { PACED_SEND, type InternalPacer, type PacingGiveUp } from './pacing.js';
import { decideRetry, type AttemptOutcome, type ResolvedRetry, type RetryEvent } from './retry.js';

/** What every call of one client shares. */
export interface ClientContext {
  readonly client: ResolvedOptions;
  readonly scope: FailureScope;
  /** Rate-limit pacing, when the client has it: every send goes through it. */
  readonly pacer: InternalPacer | undefined;
}

/**
 * How the answer is handed to openapi-fetch. `json` (helpers, raw calls parsed as JSON): read
 * within the attempt, so that a body that stalls or breaks is retried like a network error, and a
 * 2xx that is not JSON fails as `http`. A raw call's openapi-fetch gets a Response holding the
 * text read, to parse as usual; a helper takes the parsed body through `parsed` and has
 * openapi-fetch hand on the Response as it is, its body read (`parseAs: 'stream'`). `stream`
 * (downloads, other `parseAs`): a 2xx is handed on unread, capped at `okCap`, and the timeout
 * covers the attempt until the response arrives; an error answer is read like `json`. `throwOnError` (helpers): a non-2xx answer becomes its
 * FormsApiError here; raw calls get it back from openapi-fetch as `{ error, response }`.
 */
export type Reading =
  | { readonly kind: 'json'; readonly throwOnError: boolean; readonly parsed?: (data: unknown) => void }
  | { readonly kind: 'stream'; readonly throwOnError: boolean; readonly okCap: number };

/** The fetch openapi-fetch is handed for one call. */
export type CallFetch = (request: Request) => Promise<Response>;

export function callFetch(ctx: ClientContext, call: ResolvedCall, reading: Reading): CallFetch {
  return async (request) => {
    // Read once, re-sent intact by every attempt.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    return sendWithRetries(ctx, call, reading, request, body);
  };
}

function joined(caller: AbortSignal | undefined, own: AbortSignal | undefined): AbortSignal | undefined {
  return caller && own ? AbortSignal.any([caller, own]) : (caller ?? own);
}

/** One attempt's end: an answer to hand on, or what went wrong. */
type Attempt =
  | {
      readonly kind: 'answer';
      readonly response: Response;
      readonly text?: string;
      readonly data?: unknown;
      readonly gaveUp?: PacingGiveUp;
    }
  | { readonly kind: 'failed'; readonly failure: Failure; readonly reached: boolean }
  /** The fetch threw an error already typed: a pacer's fetch that gave up on 429s. */
  | { readonly kind: 'typed'; readonly error: FormsApiError };

async function sendWithRetries(
  ctx: ClientContext,
  call: ResolvedCall,
  reading: Reading,
  request: Request,
  body: ArrayBuffer | undefined,
): Promise<Response> {
  const { client, scope } = ctx;
  const { method, url } = request;
  for (let attempt = 1; ; attempt++) {
    const fail = (what: Failure) => failure(scope, { method, url, attempts: attempt }, what);
    const result = await sendOnce(ctx, call, reading, request, body);
    // Typed by a pacer's fetch that waited a 429 out as long as it may: a 429 is the pacer's
    // alone when there is one, so the retry policy does not send it again.
    if (result.kind === 'typed') throw result.error;
    if (result.kind === 'failed' && result.failure.kind === 'aborted') throw fail(result.failure);
    const outcome = outcomeOf(result, client.clock);
    const decision = outcome && decideRetry(call.retry, method, attempt, outcome, client.clock.random);
    if (decision?.retry && call.retry) {
      const event = {
        attempt,
        reason: decision.reason,
        status: decision.status,
        delayMs: decision.delayMs,
        retryAfter: decision.retryAfter,
      };
      if (await retryApproved(call.retry, event, () => operationOf(scope, method, url))) {
        if (result.kind === 'answer') result.response.body?.cancel().catch(() => {});
        await pause(decision.delayMs, call, client.clock, fail);
        continue;
      }
    }
    if (result.kind === 'failed') throw fail(result.failure);
    return handOn(reading, result, fail);
  }
}

/** What the retry policy is told about an attempt; nothing for a success or a final failure. */
function outcomeOf(result: Exclude<Attempt, { kind: 'typed' }>, clock: ResolvedClock): AttemptOutcome | undefined {
  if (result.kind === 'failed') {
    const { failure: what, reached } = result;
    if (what.kind === 'network' || what.kind === 'timeout') return { kind: what.kind, reached };
    return undefined;
  }
  const { response, gaveUp } = result;
  // The pacer has waited out 429s as long as it may: another retry would only wait again.
  if (response.ok || gaveUp) return undefined;
  return { kind: 'status', status: response.status, askedWaitMs: askedWait(response.headers, clock.now()) };
}

/** The answer as openapi-fetch is given it, or its FormsApiError for a helper. */
function handOn(
  reading: Reading,
  result: Extract<Attempt, { kind: 'answer' }>,
  fail: (what: Failure) => FormsApiError,
): Response {
  const { response } = result;
  if (reading.throwOnError && !response.ok) {
    const { body, bodyLength } = errorBody(result.text);
    throw fail({ kind: kindOfAnswer(response.status, body), response, body, bodyLength, pacing: result.gaveUp });
  }
  if (reading.kind === 'stream' && response.ok) {
    const cap = reading.okCap;
    const tooLarge = () => fail({ kind: 'response_too_large', limit: cap, response });
    checkDeclaredLength(response, cap, tooLarge);
    return limitBody(response, cap, tooLarge);
  }
  if (reading.kind === 'json' && reading.parsed) {
    // A helper's answer is parsed already; openapi-fetch is asked to hand it on unread.
    reading.parsed(result.data);
    return response;
  }
  // A null-body status (204, 205, 304) takes no body, not even an empty one.
  return withBody(response, result.text ? result.text : null);
}

/**
 * Sends one attempt (through the pacer, when there is one) and, unless the body is streamed,
 * reads the answer within the attempt's timeout. Never throws: every end is a value.
 */
async function sendOnce(
  ctx: ClientContext,
  call: ResolvedCall,
  reading: Reading,
  request: Request,
  body: ArrayBuffer | undefined,
): Promise<Attempt> {
  const { client } = ctx;
  let timedOut = false;
  let stopTimer = noop;
  // `reached`: the request may have reached the service (a status came back, or the connection
  // broke after it was sent); what an update must not be sent twice after.
  let phase: 'headers' | 'body' = 'headers';
  const send = async (): Promise<Response> => {
    // A send again after a 429 (the pacer's) gets a timeout of its own.
    stopTimer();
    timedOut = false;
    // Each attempt is sent afresh from openapi-fetch's Request, with its own timeout's signal.
    const own = call.timeoutMs === Infinity ? undefined : new AbortController();
    const signal = joined(call.signal, own?.signal);
    if (own) {
      stopTimer = client.clock.timer(call.timeoutMs, () => {
        timedOut = true;
        own.abort(new DOMException(`No response within ${call.timeoutMs} ms.`, 'TimeoutError'));
      });
    }
    const init: RequestInit = {};
    if (signal) init.signal = signal;
    if (body !== undefined) init.body = body;
    return client.fetch(request, init);
  };
  const failed = (error: unknown): Attempt => {
    if (call.signal?.aborted) return { kind: 'failed', failure: { kind: 'aborted' }, reached: true };
    if (isFormsApiError(error)) return { kind: 'typed', error };
    const reached = phase === 'body' || !refusedBeforeSending(error);
    if (timedOut) return { kind: 'failed', failure: { kind: 'timeout', timeoutMs: call.timeoutMs, phase }, reached };
    return { kind: 'failed', failure: { kind: 'network', cause: error, phase }, reached };
  };
  try {
    let response: Response;
    let gaveUp: PacingGiveUp | undefined;
    if (ctx.pacer) {
      // Pacing waits come before each send's timer starts: they are not part of `timeoutMs`.
      ({ response, gaveUp } = await ctx.pacer[PACED_SEND](send, {
        method: request.method,
        url: request.url,
        signal: call.signal,
        basePath: ctx.scope.basePath,
      }));
    } else response = await send();
    if (reading.kind === 'stream' && response.ok) {
      // The caller reads the body at its own pace; the signal the attempt sent still ends it (the
      // runtime keeps a joined signal alive while a source can abort it).
      return { kind: 'answer', response, gaveUp };
    }
    phase = 'body';
    const cap = call.maxResponseBytes;
    let overCap = false;
    const tooLarge = () => {
      overCap = true;
      return new Error('over maxResponseBytes');
    };
    let text: string;
    try {
      text = await readCapped(response, cap, tooLarge);
    } catch (error) {
      if (overCap)
        return { kind: 'failed', failure: { kind: 'response_too_large', limit: cap, response }, reached: true };
      throw error;
    }
    if (reading.kind === 'json' && response.ok && text !== '') {
      try {
        return { kind: 'answer', response, text, data: JSON.parse(text), gaveUp };
      } catch {
        return { kind: 'failed', failure: { kind: 'http', response, body: text }, reached: true };
      }
    }
    return { kind: 'answer', response, text, gaveUp };
  } catch (error) {
    return failed(error);
  } finally {
    // A streamed body is the caller's: the timeout covered the attempt until the response came.
    stopTimer();
  }
}

const noop = () => {};

// Errors a connection gives before any byte of the request is sent: nothing reached the service.
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function refusedBeforeSending(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = cause?.code ?? (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NOT_SENT.has(code);
}

/** Asks `onRetry`, if any, whether to go on: anything but `false` is yes. An exception it
 * throws ends the call as it is (openapi-fetch passes it on). */
async function retryApproved(
  retry: ResolvedRetry,
  event: Omit<RetryEvent, 'operation'>,
  operation: () => RetryEvent['operation'],
): Promise<boolean> {
  if (!retry.onRetry) return true;
  return (await retry.onRetry({ ...event, operation: operation() })) !== false;
}

const NEVER = new AbortController().signal;

async function pause(
  ms: number,
  call: ResolvedCall,
  clock: ResolvedClock,
  fail: (what: Failure) => FormsApiError,
): Promise<void> {
  if (call.signal?.aborted) throw fail({ kind: 'aborted' });
  try {
    await clock.sleep(ms, call.signal ?? NEVER);
  } catch {
    throw fail({ kind: 'aborted' });
  }
}
