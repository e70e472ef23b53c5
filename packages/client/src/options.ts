// The client's and each call's options: their types, their defaults, and the up-front checks
// that turn a wrong option into an `invalid_option` error saying what to do (never echoing the
// token).
import { FormsApiError, invalidOption } from './errors.js';
import { resolveClock, type Clock, type ResolvedClock } from './clock.js';
import { integerOption, keysOf, refuseUnknownOptions } from '@forms-api/internal/option-names';
import type { RequestPacer, RequestPacerOptions } from './pacing.js';
import type { ResolvedRetry, RetryOptions } from './retry.js';
import { VERSION } from './version.js';

export type { Clock, ResolvedClock };
export type { ResolvedRetry, RetryEvent, RetryOptions } from './retry.js';

/**
 * What the client and each call may set: a call's value wins over the client's (its `signal` is
 * joined to the client's). Every helper and raw method takes these as its last argument.
 */
export interface CallOptions {
  /** Aborts the call when it aborts; on the client, every call. */
  signal?: AbortSignal;
  /** Per-attempt timeout in ms (default 30 000; `Infinity` for none). */
  timeoutMs?: number;
  /** Retry settings, or `false` to never retry. */
  retry?: RetryOptions | false;
  /**
   * The most bytes of a response body the client reads (default 32 MiB; `Infinity` for no cap).
   * A longer body fails with `kind: 'response_too_large'` as soon as it passes the cap.
   */
  maxResponseBytes?: number;
}

export interface FormsClientOptions extends CallOptions {
  /** Absolute URL of the service, e.g. `https://api.opnform.com` (paths start with `/open`). */
  baseUrl: string;
  /**
   * A personal access token (without "Bearer "), or `null` for a client that sends none: for the
   * public operations alone (any other is answered 401).
   */
  token: string | null;
  /** The fetch to use (default: globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** User-Agent header (default `forms-api-kit-client/<version>`). */
  userAgent?: string;
  clock?: Clock;
  /**
   * Rate-limit pacing (off by default): a pacer from `createRequestPacer`, shared with other
   * clients and fetches that spend the same budget, or its options (a pacer of this client's own).
   */
  pacing?: RequestPacer | RequestPacerOptions | false;
}

/** `CallOptions` with every default applied. */
export interface ResolvedCall {
  readonly timeoutMs: number;
  readonly retry: ResolvedRetry | false;
  readonly signal: AbortSignal | undefined;
  readonly maxResponseBytes: number;
}

export interface ResolvedOptions extends ResolvedCall {
  readonly baseUrl: string;
  readonly basePath: string;
  readonly token: string | null;
  /** Sends one attempt: openapi-fetch's Request with the attempt's signal and body. */
  readonly fetch: (request: Request, init: RequestInit) => Promise<Response>;
  readonly userAgent: string;
  readonly clock: ResolvedClock;
}

const DEFAULT_RETRY: ResolvedRetry = Object.freeze({
  retries: 2,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
  retryOn: new Set([408, 429, 502, 503, 504]),
  unsafe: false,
  onRetry: undefined,
});
const DEFAULTS: ResolvedCall = Object.freeze({
  timeoutMs: 30_000,
  retry: DEFAULT_RETRY,
  signal: undefined,
  // Far above any page of the service (100 submissions), far below what would exhaust memory.
  maxResponseBytes: 32 * 1024 * 1024,
});
// setTimeout's upper bound; AbortSignal.timeout rejects larger delays.
const MAX_TIMER_MS = 2_147_483_647;

/** The names of a call's options: a helper's, and those a raw call reads beside openapi-fetch's. */
export const CALL_KEYS = keysOf<CallOptions>({ signal: true, timeoutMs: true, retry: true, maxResponseBytes: true });
const CLIENT_KEYS = [
  ...CALL_KEYS,
  ...keysOf<Omit<FormsClientOptions, keyof CallOptions>>({
    baseUrl: true,
    token: true,
    fetch: true,
    userAgent: true,
    clock: true,
    pacing: true,
  }),
];
const RETRY_KEYS = keysOf<RetryOptions>({
  retries: true,
  baseDelayMs: true,
  maxDelayMs: true,
  maxRetryAfterMs: true,
  retryOn: true,
  unsafe: true,
  onRetry: true,
});

/**
 * A caller's fetch, given the attempt's Request. A Request follows its init's signal only weakly
 * (undici), so a Request that nothing holds while the fetch waits (a pass-through fetch returns at
 * once) can be collected, and the attempt's timeout and the caller's signal never reach the
 * socket: the call never ends. The callback on the fetch's promise holds it until it settles.
 */
function sendThrough(fetchFn: (request: Request) => Promise<Response>) {
  return (request: Request, init: RequestInit): Promise<Response> => {
    const attempt = new Request(request, init);
    return fetchFn(attempt).finally(() => attempt);
  };
}

export function resolveClientOptions(options: FormsClientOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object')
    throw invalidOption('options', 'createFormsClient needs an options object: { baseUrl, token }.');
  refuseUnknownOptions(FormsApiError, options, CLIENT_KEYS, 'createFormsClient');
  const { baseUrl, basePath } = checkBaseUrl(options.baseUrl);
  checkToken(options.token);
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function')
    throw invalidOption('fetch', 'no fetch function is available: pass `fetch` (any WHATWG fetch) in this runtime.');
  const userAgent = options.userAgent ?? `forms-api-kit-client/${VERSION}`;
  if (typeof userAgent !== 'string' || userAgent.trim() === '' || /[\r\n]/.test(userAgent))
    throw invalidOption('userAgent', 'must be a non-empty, single-line string.');
  return {
    ...mergeCallOptions(DEFAULTS, options),
    baseUrl,
    basePath,
    token: options.token,
    // The runtime's fetch builds the attempt's Request from (request, init) itself; a fetch of the
    // caller's takes a Request, built here. Called unbound: some runtimes' fetch throws "Illegal
    // invocation" when called as a method.
    fetch: options.fetch ? sendThrough(fetchFn) : (request, init) => globalThis.fetch(request, init),
    userAgent,
    clock: resolveClock(options.clock),
  };
}

/** One call's options over the client's. */
export function resolveCallOptions(client: ResolvedCall, call: CallOptions | undefined): ResolvedCall {
  if (call === undefined) return client;
  if (call === null || typeof call !== 'object') throw invalidOption('options', 'call options must be an object.');
  refuseUnknownOptions(FormsApiError, call, CALL_KEYS, 'a call');
  return mergeCallOptions(client, call);
}

/** The one merge of `CallOptions` over resolved ones: the client's over the defaults, a call's over the client's. */
export function mergeCallOptions(base: ResolvedCall, over: CallOptions): ResolvedCall {
  checkSignal(over.signal, 'signal');
  return {
    timeoutMs: checkTimeout(over.timeoutMs, 'timeoutMs') ?? base.timeoutMs,
    retry: resolveRetry(over.retry, base.retry || DEFAULT_RETRY, 'retry', base.retry),
    signal: over.signal && base.signal ? AbortSignal.any([base.signal, over.signal]) : (over.signal ?? base.signal),
    maxResponseBytes: checkByteCap(over.maxResponseBytes) ?? base.maxResponseBytes,
  };
}

function checkBaseUrl(value: unknown): { baseUrl: string; basePath: string } {
  if (typeof value !== 'string' || value.trim() === '')
    throw invalidOption(
      'baseUrl',
      'is required: pass the absolute URL of the service, e.g. "https://api.opnform.com".',
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidOption(
      'baseUrl',
      // The value is not echoed: a token passed in the wrong place must not end up in a log.
      'is not an absolute URL: include the scheme and host, e.g. "https://api.opnform.com".',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalidOption('baseUrl', `must use http or https, not "${url.protocol}".`);
  if (url.username || url.password)
    throw invalidOption('baseUrl', 'must not carry credentials: pass the token as the `token` option.');
  if (url.search || url.hash) throw invalidOption('baseUrl', 'must not have a query string or a fragment.');
  const basePath = url.pathname.replace(/\/+$/, '');
  if (/\/open$/.test(basePath))
    throw invalidOption('baseUrl', 'must not end with "/open": the operation paths already start with it.');
  return { baseUrl: `${url.origin}${basePath}`, basePath };
}

function checkToken(value: unknown): void {
  if (value === null) return;
  if (typeof value !== 'string' || value.length === 0)
    throw invalidOption(
      'token',
      'is required: create a personal access token in the service (or pass `null` to send none).',
    );
  if (/^bearer\s/i.test(value)) throw invalidOption('token', 'pass the token alone, without the "Bearer " prefix.');
  if (/\s/.test(value))
    throw invalidOption('token', 'contains whitespace (a stray newline or space from copying it?): trim it.');
  // Headers must be Latin-1; anything else would throw deep inside fetch.
  if (/[^\x21-\x7e]/.test(value)) throw invalidOption('token', 'contains characters that cannot be sent in a header.');
}

function checkTimeout(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (value === Infinity) return Infinity;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMER_MS)
    throw invalidOption(
      name,
      `must be a positive number of milliseconds up to ${MAX_TIMER_MS}, or Infinity for none (got ${String(value)}).`,
    );
  return value;
}

function checkByteCap(value: unknown): number | undefined {
  if (value === undefined || value === Infinity) return value;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw invalidOption(
      'maxResponseBytes',
      `must be a positive integer number of bytes, or Infinity for no cap (got ${String(value)}).`,
    );
  return value;
}

function checkSignal(value: unknown, name: string): void {
  if (value !== undefined && !(value instanceof AbortSignal))
    throw invalidOption(name, 'must be an AbortSignal (e.g. from an AbortController).');
}

/** `value` over `base` (what a retry object's unset keys take); `current` when `value` is unset. */
function resolveRetry(
  value: unknown,
  base: ResolvedRetry,
  name: string,
  current: ResolvedRetry | false = base,
): ResolvedRetry | false {
  if (value === undefined) return current;
  if (value === false) return false;
  if (value === null || typeof value !== 'object')
    throw invalidOption(name, 'must be `false` or an object such as { retries: 3 }.');
  refuseUnknownOptions(FormsApiError, value, RETRY_KEYS, name, { prefix: `${name}.` });
  const v = value as RetryOptions;
  const count = (key: keyof RetryOptions, fallback: number): number => {
    const n = v[key];
    return n === undefined ? fallback : integerOption(FormsApiError, n, `${name}.${key}`, { min: 0 });
  };
  const retryOn = v.retryOn ?? [...base.retryOn];
  if (!Array.isArray(retryOn) || !retryOn.every((s) => Number.isInteger(s) && s >= 100 && s <= 599))
    throw invalidOption(`${name}.retryOn`, 'must be an array of HTTP status codes.');
  if (v.unsafe !== undefined && typeof v.unsafe !== 'boolean')
    throw invalidOption(`${name}.unsafe`, 'must be a boolean.');
  if (v.onRetry !== undefined && typeof v.onRetry !== 'function')
    throw invalidOption(`${name}.onRetry`, 'must be a function (event) => boolean | void.');
  const resolved = {
    retries: count('retries', base.retries),
    baseDelayMs: count('baseDelayMs', base.baseDelayMs),
    maxDelayMs: count('maxDelayMs', base.maxDelayMs),
    maxRetryAfterMs: count('maxRetryAfterMs', base.maxRetryAfterMs),
    retryOn: new Set(retryOn),
    unsafe: v.unsafe ?? base.unsafe,
    onRetry: v.onRetry ?? base.onRetry,
  };
  if (resolved.maxDelayMs < resolved.baseDelayMs)
    throw invalidOption(`${name}.maxDelayMs`, 'must be at least `baseDelayMs`.');
  return resolved;
}
