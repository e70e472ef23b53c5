// The fetch the client hands to openapi-fetch: it sends each attempt as a fresh Request with its
// own timeout, and retries network errors, timeouts and retryable statuses with backoff. A custom
// fetch is where openapi-fetch's maintainers point for re-sending requests; middleware only sees
// one send.
import { FormsApiError, operationLabel, parseRetryAfter } from './errors.js';
import { describeOperation } from './operations.js';
import type { ResolvedCall, ResolvedOptions, ResolvedRetry } from './options.js';
import type { Redact } from './redact.js';

// RFC 9110 idempotent methods: a repeat has the same effect as one send.
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** What one call's transport reports back to the helper that made it. */
export interface CallRecord {
  attempts: number;
}

export type Transport = (request: Request) => Promise<Response>;

export function createTransport(
  client: ResolvedOptions,
  call: ResolvedCall,
  redact: Redact,
  record: CallRecord = { attempts: 0 },
): Transport {
  const { fetch, clock } = client;
  // Node 20's fetch links a Request to its signal only weakly, and AbortSignal.timeout/any
  // signals are collectable once nothing else holds them: after a GC the timeout never fires.
  // Each response keeps its attempt's Request and signals alive until its body has been read.
  const keepAlive = new WeakMap<Response, readonly unknown[]>();
  return async (request) => {
    const retry = call.retry && (IDEMPOTENT.has(request.method) || call.retry.unsafe) ? call.retry : undefined;
    const callerSignal = call.signal;
    // Read the body once, before the first send, so that every attempt re-sends it intact.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    for (let attempt = 1; ; attempt++) {
      record.attempts = attempt;
      const timeout = call.timeoutMs === Infinity ? undefined : AbortSignal.timeout(call.timeoutMs);
      const signal = compose(callerSignal, timeout);
      const init: RequestInit = {};
      if (signal) init.signal = signal;
      if (body !== undefined) init.body = body;
      // The global fetch builds the attempt's fresh Request from (request, init) itself; building
      // it here too would make two Requests follow the signal, the costliest step of a call.
      const sent = client.nativeFetch ? undefined : new Request(request, init);
      let response: Response;
      try {
        response = await (sent ? fetch(sent) : globalThis.fetch(request, init));
      } catch (error) {
        const kind = callerSignal?.aborted ? 'aborted' : timeout?.aborted ? 'timeout' : 'network';
        if (kind !== 'aborted' && retry && attempt <= retry.retries) {
          await pause(backoff(retry, attempt, clock.random), callerSignal, client, request, attempt, redact);
          continue;
        }
        throw transportError(kind, error, request, client, call, attempt, redact);
      }
      keepAlive.set(response, [sent, signal, timeout, callerSignal]);
      if (retry && attempt <= retry.retries && retry.retryOn.has(response.status)) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'), clock.now());
        // A longer wait than allowed is not shortened: it would only earn another refusal.
        if (retryAfter === undefined || retryAfter <= retry.maxRetryAfterMs) {
          // Free the connection; the body of a response we retry is never read.
          response.body?.cancel().catch(() => {});
          await pause(retryAfter ?? backoff(retry, attempt, clock.random), callerSignal, client, request, attempt, redact);
          continue;
        }
      }
      return response;
    }
  };
}

function compose(caller: AbortSignal | undefined, timeout: AbortSignal | undefined): AbortSignal | undefined {
  return caller && timeout ? AbortSignal.any([caller, timeout]) : (caller ?? timeout);
}

/** Full-jitter exponential backoff: uniform in [0, min(cap, base·2^(n-1))). */
export function backoff(retry: ResolvedRetry, retryNumber: number, random: () => number): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (retryNumber - 1));
  return Math.floor(random() * ceiling);
}

const NEVER = new AbortController().signal;

async function pause(
  ms: number,
  signal: AbortSignal | undefined,
  client: ResolvedOptions,
  request: Request,
  attempt: number,
  redact: Redact,
): Promise<void> {
  if (signal?.aborted) throw abortedError(request, client, attempt, redact);
  try {
    await client.clock.sleep(ms, signal ?? NEVER);
  } catch {
    throw abortedError(request, client, attempt, redact);
  }
}


function abortedError(request: Request, client: ResolvedOptions, attempts: number, redact: Redact): FormsApiError {
  const operation = describeOperation(request.method, request.url, client.basePath);
  return new FormsApiError({
    kind: 'aborted',
    message: `${operationLabel(operation)} was aborted by the caller's signal; it is not retried.`,
    operation,
    url: redact(request.url),
    attempts,
  });
}

function transportError(
  kind: 'aborted' | 'timeout' | 'network',
  error: unknown,
  request: Request,
  client: ResolvedOptions,
  call: ResolvedCall,
  attempts: number,
  redact: Redact,
): FormsApiError {
  if (kind === 'aborted') return abortedError(request, client, attempts, redact);
  const operation = describeOperation(request.method, request.url, client.basePath);
  const label = operationLabel(operation);
  const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
  const cause = summariseCause(error, redact);
  const message =
    kind === 'timeout'
      ? `${label} got no response within ${call.timeoutMs} ms${tries}: the service is slow or unreachable; raise \`timeoutMs\` or try again later.`
      : `${label} could not reach ${new URL(request.url).origin}${cause.code ? ` (${cause.code})` : ''}${tries}: check \`baseUrl\`, DNS, proxies and the network.`;
  return new FormsApiError({
    kind,
    message: redact(message),
    operation,
    url: redact(request.url),
    attempts,
    cause: cause.error,
  });
}

/**
 * A copy of a fetch failure that keeps its name, message and code (e.g. ECONNREFUSED) but
 * nothing else: the original may reference the request, and with it the Authorization header.
 */
function summariseCause(error: unknown, redact: Redact): { error: Error; code: string | undefined } {
  const outer = error instanceof Error ? error : new Error(String(error));
  const inner = outer.cause instanceof Error ? outer.cause : undefined;
  const code = codeOf(inner) ?? codeOf(outer);
  const text = inner ? `${outer.message}: ${inner.message}` : outer.message;
  const copy = new Error(redact(text));
  copy.name = outer.name;
  if (code) (copy as Error & { code?: string }).code = code;
  return { error: copy, code };
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
