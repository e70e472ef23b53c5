// The fetch the client hands to openapi-fetch: it sends each attempt as a fresh Request with its
// own timeout, and retries network errors, timeouts and retryable statuses with backoff. A custom
// fetch is where openapi-fetch's maintainers point for re-sending requests; middleware only sees
// one send.
import { limitBody } from './body-limit.js';
import { failure, type FailureScope } from './failures.js';
import type { ResolvedCall, ResolvedOptions } from './options.js';
import { backoff, parseRetryAfter } from './retry.js';

// RFC 9110 idempotent methods: a repeat has the same effect as one send.
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** What one call's transport reports back to the code that made the call. */
export interface CallState {
  attempts: number;
  /** The request last sent (set before each attempt), for errors raised after it. */
  sent: { readonly method: string; readonly url: string } | undefined;
}

export function newCallState(): CallState {
  return { attempts: 0, sent: undefined };
}

export type Transport = (request: Request) => Promise<Response>;

export function createTransport(client: ResolvedOptions, call: ResolvedCall, scope: FailureScope, state: CallState): Transport {
  const { fetch, clock } = client;
  // Node 20's fetch links a Request to its signal only weakly, and AbortSignal.timeout/any
  // signals are collectable once nothing else holds them: after a GC the timeout never fires.
  // Each response keeps its attempt's Request and signals alive until its body has been read.
  const keepAlive = new WeakMap<Response, readonly unknown[]>();
  return async (request) => {
    const retry = call.retry && (IDEMPOTENT.has(request.method) || call.retry.unsafe) ? call.retry : undefined;
    const callerSignal = call.signal;
    const sent = { method: request.method, url: request.url };
    state.sent = sent;
    const fail = (what: Parameters<typeof failure>[2]) => failure(scope, { ...sent, attempts: state.attempts }, what);
    const pause = async (ms: number) => {
      if (callerSignal?.aborted) throw fail({ kind: 'aborted' });
      try {
        await clock.sleep(ms, callerSignal ?? NEVER);
      } catch {
        throw fail({ kind: 'aborted' });
      }
    };
    // Read the body once, before the first send, so that every attempt re-sends it intact.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    for (let attempt = 1; ; attempt++) {
      state.attempts = attempt;
      const timeout = call.timeoutMs === Infinity ? undefined : AbortSignal.timeout(call.timeoutMs);
      const signal = compose(callerSignal, timeout);
      const init: RequestInit = {};
      if (signal) init.signal = signal;
      if (body !== undefined) init.body = body;
      // The global fetch builds the attempt's fresh Request from (request, init) itself; building
      // it here too would make two Requests follow the signal, the costliest step of a call.
      const sentRequest = client.nativeFetch ? undefined : new Request(request, init);
      let response: Response;
      try {
        response = await (sentRequest ? fetch(sentRequest) : globalThis.fetch(request, init));
      } catch (error) {
        if (callerSignal?.aborted) throw fail({ kind: 'aborted' });
        const what = timeout?.aborted
          ? ({ kind: 'timeout', timeoutMs: call.timeoutMs, phase: 'headers' } as const)
          : ({ kind: 'network', cause: error, phase: 'headers' } as const);
        if (retry && attempt <= retry.retries) {
          await pause(backoff(retry, attempt, clock.random));
          continue;
        }
        throw fail(what);
      }
      if (retry && attempt <= retry.retries && retry.retryOn.has(response.status)) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'), clock.now());
        // A longer wait than allowed is not shortened: it would only earn another refusal.
        if (retryAfter === undefined || retryAfter <= retry.maxRetryAfterMs) {
          // Free the connection; the body of a response we retry is never read.
          response.body?.cancel().catch(() => {});
          await pause(retryAfter ?? backoff(retry, attempt, clock.random));
          continue;
        }
      }
      const limited = limitBody(response, call.maxResponseBytes, client.nativeFetch, () =>
        fail({ kind: 'too_large', limit: call.maxResponseBytes, response }),
      );
      keepAlive.set(limited, [sentRequest, signal, timeout, callerSignal]);
      return limited;
    }
  };
}

function compose(caller: AbortSignal | undefined, timeout: AbortSignal | undefined): AbortSignal | undefined {
  return caller && timeout ? AbortSignal.any([caller, timeout]) : (caller ?? timeout);
}

const NEVER = new AbortController().signal;
