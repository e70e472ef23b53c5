// The fetch the client hands to openapi-fetch, one per call: it sends each attempt as a fresh
// Request with its own timeout, retries network errors, timeouts and retryable statuses with
// backoff, and caps the body it hands on. A custom fetch is where openapi-fetch's maintainers
// point for re-sending requests; middleware only sees one send.
import type { AttemptTimer, AttemptTimers } from './attempt-timers.js';
import { checkDeclaredLength, limitBody } from './body-limit.js';
import { failure, kindOfStatus, operationOf, type Failure, type FailureScope } from './failures.js';
import type { OperationInfo } from './operations.js';
import { PACED_SEND, type InternalPacer, type PacingGiveUp } from './pacing.js';
import type { ResolvedCall, ResolvedOptions, ResolvedRetry, RetryEvent } from './options.js';
import { backoff, parseRetryAfter } from './retry.js';

// RFC 9110 idempotent methods: a repeat has the same effect as one send.
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** What every transport of one client shares. */
export interface TransportContext {
  readonly client: ResolvedOptions;
  readonly scope: FailureScope;
  /**
   * Signals joined from the caller's and the attempt's, kept alive by the response they belong
   * to: Node 20's fetch holds a Request's signal only weakly, and a joined signal nothing else
   * holds would be collected, and never abort the body.
   */
  readonly retained: WeakMap<Response, AbortSignal>;
  readonly timers: AttemptTimers;
  /** Rate-limit pacing, when the client has it: every send goes through it. */
  readonly pacer: InternalPacer | undefined;
}

/** What one call's transport shares with the code that made the call. */
export interface CallState {
  attempts: number;
  /** The request last sent (set before each attempt), for errors raised after it. */
  sent: { readonly method: string; readonly url: string } | undefined;
  /** The current attempt's timeout fired (so a failed body read is a timeout). */
  timedOut: boolean;
  /** An exception thrown by the caller's own code (`onRetry`), to be passed on untouched. */
  foreign: unknown;
  /** The current attempt's timer, cleared by `settle` once the call has returned. */
  timer: AttemptTimer | undefined;
  /** The pacer stopped waiting out 429s: the answer is that last 429. */
  pacedOut: PacingGiveUp | undefined;
}

export function newCallState(): CallState {
  return { attempts: 0, sent: undefined, timedOut: false, foreign: undefined, timer: undefined, pacedOut: undefined };
}

/**
 * Ends the call's timeout. By the time a call returns openapi-fetch has read the body, so the
 * timeout covers it; a body handed on as a stream (downloads, `parseAs: 'stream'`) is the
 * caller's, and stops on the caller's signal or `body.cancel()`.
 */
export function settle(state: CallState): void {
  state.timer?.stop();
  state.timer = undefined;
}

/** A request to send: what openapi-fetch built, or what a helper describes directly. */
export interface Outgoing {
  readonly method: string;
  readonly url: string;
  /** What fetch is given: openapi-fetch's Request, or the URL (then `init` has method and headers). */
  readonly input: Request | string;
  readonly init: RequestInit | undefined;
  /** Read once and re-sent intact by every attempt. */
  readonly body: ArrayBuffer | string | undefined;
  /** The caller reads the answer itself, counting (readLimited): hand the response on as it is. */
  readonly readByCaller?: boolean;
  /** The cap of a 2xx body, when not the call's `maxResponseBytes` (a download handed on unread). */
  readonly okCap?: number;
}

/** Sends one call's request: attempts, timeouts, retries, the body cap. */
export type Sender = (outgoing: Outgoing) => Promise<Response>;

/** The fetch openapi-fetch is handed: its Request, sent by the call's sender. */
export type Transport = (request: Request) => Promise<Response>;

export function asTransport(send: Sender, okCap?: number): Transport {
  return async (request) => {
    const body = request.body === null ? undefined : await request.arrayBuffer();
    return send({ method: request.method, url: request.url, input: request, init: undefined, body, okCap });
  };
}

export function createSender(ctx: TransportContext, call: ResolvedCall, state: CallState): Sender {
  const { client } = ctx;
  return async (outgoing) => {
    const { method, url, input, body } = outgoing;
    const retry = call.retry && (IDEMPOTENT.has(method) || call.retry.unsafe) ? call.retry : undefined;
    const sent = { method, url };
    state.sent = sent;
    const fail = (what: Failure) => failure(ctx.scope, { ...sent, attempts: state.attempts }, what);
    for (let attempt = 1; ; attempt++) {
      state.attempts = attempt;
      let signal: AbortSignal | undefined;
      const sendOnce = () => {
        // A send again after a 429 (the pacer's) gets a timeout of its own.
        settle(state);
        signal = attemptSignal(ctx.timers, call, state);
        const init: RequestInit = { ...outgoing.init };
        if (signal) init.signal = signal;
        if (body !== undefined) init.body = body;
        // The global fetch builds the attempt's fresh Request from (input, init) itself;
        // building it here too would make two Requests follow the signal.
        return client.nativeFetch ? globalThis.fetch(input, init) : client.fetch(new Request(input, init));
      };
      let response: Response;
      try {
        if (ctx.pacer) {
          // Pacing waits come before the attempt's timer starts: they are not part of `timeoutMs`.
          const paced = await ctx.pacer[PACED_SEND](sendOnce, { method, url, signal: call.signal });
          response = paced.response;
          state.pacedOut = paced.gaveUp;
        } else response = await sendOnce();
      } catch (error) {
        settle(state);
        if (call.signal?.aborted) throw fail({ kind: 'aborted' });
        const what: Failure = state.timedOut
          ? { kind: 'timeout', timeoutMs: call.timeoutMs, phase: 'headers' }
          : { kind: 'network', cause: error, phase: 'headers' };
        if (retry && attempt <= retry.retries) {
          const delayMs = backoff(retry, attempt, client.clock.random);
          if (await retryApproved(retry, { attempt, reason: what.kind, delayMs, retryAfter: false }, () => operationOf(ctx.scope, method, url), state)) {
            await pause(delayMs, call, client, fail);
            continue;
          }
        }
        throw fail(what);
      }
      // The pacer has waited out 429s as long as it may: another retry would only wait again.
      if (retry && attempt <= retry.retries && retry.retryOn.has(response.status) && !state.pacedOut) {
        const delay = retryDelay(retry, response, attempt, client);
        const { status } = response;
        const event = delay && { attempt, reason: kindOfStatus(status), status, delayMs: delay.ms, retryAfter: delay.retryAfter };
        if (event && (await retryApproved(retry, event, () => operationOf(ctx.scope, method, url), state))) {
          settle(state);
          // Free the connection; the body of a response we retry is never read.
          response.body?.cancel().catch(() => {});
          await pause(event.delayMs, call, client, fail);
          continue;
        }
      }
      const cap = response.ok && outgoing.okCap !== undefined ? outgoing.okCap : call.maxResponseBytes;
      const tooLarge = () => fail({ kind: 'too_large', limit: cap, response });
      checkDeclaredLength(response, cap, tooLarge);
      const handed = outgoing.readByCaller ? response : limitBody(response, cap, client.nativeFetch, tooLarge);
      if (signal && signal !== call.signal && call.signal) ctx.retained.set(handed, signal);
      return handed;
    }
  };
}

/**
 * The attempt's signal: its own timeout (a timer the call clears when it returns, which also
 * keeps the signal alive until then), joined to the caller's signal when there is one.
 */
function attemptSignal(timers: AttemptTimers, call: ResolvedCall, state: CallState): AbortSignal | undefined {
  let own: AbortSignal | undefined;
  if (call.timeoutMs !== Infinity) {
    const controller = new AbortController();
    own = controller.signal;
    state.timedOut = false;
    state.timer = timers.start(call.timeoutMs, () => {
      state.timedOut = true;
      controller.abort(new DOMException(`No response within ${call.timeoutMs} ms.`, 'TimeoutError'));
    });
  }
  const caller = call.signal;
  return caller && own ? AbortSignal.any([caller, own]) : (caller ?? own);
}

/** The wait before retrying a retryable status, or undefined when its Retry-After is too long. */
function retryDelay(retry: ResolvedRetry, response: Response, attempt: number, client: ResolvedOptions) {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'), client.clock.now());
  if (retryAfter === undefined) return { ms: backoff(retry, attempt, client.clock.random), retryAfter: false };
  // A longer wait than allowed is not shortened: it would only earn another refusal.
  return retryAfter <= retry.maxRetryAfterMs ? { ms: retryAfter, retryAfter: true } : undefined;
}

/** Asks `onRetry`, if any, whether to go on: anything but `false` is yes. */
async function retryApproved(
  retry: ResolvedRetry,
  event: Omit<RetryEvent, 'operation'>,
  operation: () => OperationInfo,
  state: CallState,
): Promise<boolean> {
  if (!retry.onRetry) return true;
  try {
    return (await retry.onRetry({ ...event, operation: operation() })) !== false;
  } catch (error) {
    state.foreign = error;
    throw error;
  }
}

const NEVER = new AbortController().signal;

async function pause(ms: number, call: ResolvedCall, client: ResolvedOptions, fail: (what: Failure) => Error): Promise<void> {
  if (call.signal?.aborted) throw fail({ kind: 'aborted' });
  try {
    await client.clock.sleep(ms, call.signal ?? NEVER);
  } catch {
    throw fail({ kind: 'aborted' });
  }
}
