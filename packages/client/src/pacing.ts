// Rate-limit pacing, on the model of Octokit's plugin-throttling: requests are spaced ahead of
// time so that a per-minute budget (the service allows 100 a minute per user) is never spent, the
// budget the service reports on every answer corrects that model, and a 429 that still comes is
// waited out and the request sent again, within a bound. One pacer may serve several clients and
// plain `fetch` users: they share its budget, as they share the service's. An operation the spec
// says the service counts in a bucket of its own (`rateLimit` in the operations table: the
// export's 10 a minute) is paced in that bucket, apart from the shared one.
import { askedWait } from '@forms-api/internal/asked-wait';
import { FormsApiError, invalidOption } from './errors.js';
import { resolveClock, type Clock, type ResolvedClock } from './clock.js';
import { integerOption, keysOf, refuseUnknownOptions } from '@forms-api/internal/option-names';
import { withoutQuerySecrets } from './redact.js';
import { describeOperation, operation } from './operations.js';

export interface RequestPacerOptions {
  /** The budget to keep within: requests per minute (the service allows 100 per user). */
  requestsPerMinute: number;
  /**
   * The longest one request waits, in total, after 429s before it fails with
   * `kind: 'rate_limited'` (default 120 000 ms). Waits ahead of time (pacing) are not bounded by
   * it: end those with your `signal`.
   */
  maxWaitMs?: number;
  /** How many 429s one request may meet and still be sent again (default 5). */
  max429Retries?: number;
  /**
   * Space requests only for a service that reports a limit (default false: always). While its
   * answers carry no `X-RateLimit-Limit` and no 429 comes (a service or proxy that enforces none),
   * requests are sent at once; a 429 puts the pacer back in charge. The first request is paced.
   */
  onlyWhenLimited?: boolean;
  /** Time, injectable for tests (`now` and `sleep` are used). */
  clock?: Clock;
  /** Called before each wait: for progress lines ("waiting 12 s for the rate limit"). */
  onWait?: (info: PacingWait) => void;
}

/** One wait the pacer is about to make. */
export interface PacingWait {
  readonly waitMs: number;
  /** `pacing`: spacing ahead of time; `rate_limited`: after a 429 (its `Retry-After`). */
  readonly reason: 'pacing' | 'rate_limited';
  readonly method: string;
  /** The URL's path (no query, which may hold a signature). */
  readonly path: string;
  /** The rate-limit bucket of its own the request is paced in (`export`); undefined: the shared one. */
  readonly bucket: string | undefined;
  /** How many 429s this request has met so far. */
  readonly refusals: number;
  /** The budget the service last reported (`X-RateLimit-Remaining`), if it did. */
  readonly remaining: number | undefined;
}

/** What a pacer has done so far: for a progress line or a run's summary. */
export interface PacingStats {
  /** Requests sent (a request sent again after a 429 counts again). */
  readonly requests: number;
  /** Time requests spent waiting, summed over requests (pacing and after 429s). */
  readonly waitedMs: number;
  /** Of `waitedMs`, the waits ahead of time. */
  readonly pacingWaitMs: number;
  /** Of `waitedMs`, the waits after 429s. */
  readonly rateLimitedWaitMs: number;
  /** 429s met. */
  readonly rateLimited: number;
  /** Requests that failed because they were still refused after `maxWaitMs` / `max429Retries`. */
  readonly gaveUp: number;
  /** The shared budget per minute in force: `requestsPerMinute`, or a lower `X-RateLimit-Limit`. */
  readonly limit: number;
  /** The shared budget the service last reported (`X-RateLimit-Remaining`), if it did. */
  readonly remaining: number | undefined;
  /** With `onlyWhenLimited`: the service has reported no limit, so requests are not spaced. */
  readonly unlimited: boolean;
}

type Fetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface RequestPacer {
  readonly requestsPerMinute: number;
  /**
   * A fetch that sends through this pacer (sharing its budget with every client given the same
   * pacer), e.g. for openapi-fetch's `fetch` option. A request still refused after the bound
   * rejects with a `FormsApiError` of kind `rate_limited`.
   */
  fetch(fetchImpl?: Fetch): Fetch;
  stats(): PacingStats;
}

/** Why a request was given up on: the last 429's asked wait, and what was waited before it. */
export interface PacingGiveUp {
  readonly retryAfterMs: number;
  readonly waitedMs: number;
  readonly refusals: number;
  readonly maxWaitMs: number;
}

export interface PacedResponse {
  readonly response: Response;
  /** Set when the response is a 429 the pacer stopped waiting out. */
  readonly gaveUp?: PacingGiveUp;
}

export interface PacedRequest {
  readonly method: string;
  readonly url: string;
  readonly signal: AbortSignal | undefined;
  /** The path of the client's baseUrl, left out when the URL's path names the operation. */
  readonly basePath?: string;
}

/** The pacer's own entry, for the client: `send` is called for each (re)send. */
export type PacedSend = (send: () => Promise<Response>, request: PacedRequest) => Promise<PacedResponse>;

// Keyed by Symbol.for so that a pacer made by the ESM build works with a client of the CJS build.
export const PACED_SEND: unique symbol = Symbol.for('@forms-api/client.pacedSend') as never;

export type InternalPacer = RequestPacer & { readonly [PACED_SEND]: PacedSend };

// The service counts its minute in whole seconds from a window's first request: spacing as if a
// minute lasted one second more keeps an evenly spaced run inside any window the service may
// count, and absorbs a second of network jitter.
const MARGIN_MS = 1_000;
const NEVER = new AbortController().signal;

/** What the pacer knows of one bucket the service counts in: the shared one, or an operation's own. */
interface Bucket {
  /** Undefined for the shared bucket. */
  readonly name: string | undefined;
  /** Requests a window allows, as configured or as the spec states it. */
  readonly allowed: number;
  /** The window, with the margin. */
  readonly windowMs: number;
  nextSlotAt: number; // the earliest start of the next request
  holdUntil: number; // after a 429: nobody sends before this
  reportedLimit: number | undefined;
  remaining: number | undefined;
  windowEndsAt: number; // the latest the service's current window may end
  inFlight: number;
}

function bucket(allowed: number, windowSeconds: number, name?: string): Bucket {
  return {
    name,
    allowed,
    windowMs: windowSeconds * 1000 + MARGIN_MS,
    nextSlotAt: -Infinity,
    holdUntil: -Infinity,
    reportedLimit: undefined,
    remaining: undefined,
    windowEndsAt: -Infinity,
    inFlight: 0,
  };
}

const limitOf = (b: Bucket) => Math.min(b.allowed, b.reportedLimit ?? Infinity);

export function createRequestPacer(options: RequestPacerOptions): RequestPacer {
  const settings = resolvePacerOptions(options);
  const { clock, requestsPerMinute, maxWaitMs, max429Retries, onWait } = settings;
  // What the service has said of a limit: `reported` (for good) once an answer carried one.
  let serviceLimit: 'unknown' | 'reported' | 'none' = settings.onlyWhenLimited ? 'unknown' : 'reported';

  const shared = bucket(requestsPerMinute, 60);
  const own = new Map<string, Bucket>();
  const totals = { requests: 0, waitedMs: 0, pacingWaitMs: 0, rateLimitedWaitMs: 0, rateLimited: 0, gaveUp: 0 };

  /** The bucket of a request's operation: its own when the operations table gives it one. */
  const bucketOf = ({ method, url, basePath = '' }: PacedRequest): Bucket => {
    const { operationId } = describeOperation(method, url, basePath);
    const limit = operationId && operation(operationId).rateLimit;
    if (!limit) return shared;
    let found = own.get(limit.bucket);
    if (!found) own.set(limit.bucket, (found = bucket(limit.limit, limit.windowSeconds, limit.bucket)));
    return found;
  };

  const wait = async (b: Bucket, ms: number, reason: PacingWait['reason'], request: PacedRequest, refusals: number) => {
    if (ms <= 0) return;
    const { method, url } = request;
    onWait?.({ waitMs: ms, reason, method, path: pathOf(url), bucket: b.name, refusals, remaining: b.remaining });
    totals.waitedMs += ms;
    if (reason === 'pacing') totals.pacingWaitMs += ms;
    else totals.rateLimitedWaitMs += ms;
    await clock.sleep(ms, request.signal ?? NEVER);
  };

  /** Reserves the next slot (each request its own), waits for it, and for any hold a 429 set. */
  const acquire = async (b: Bucket, request: PacedRequest, refusals: number) => {
    while (serviceLimit !== 'none') {
      request.signal?.throwIfAborted();
      const now = clock.now();
      const slot = Math.max(now, b.nextSlotAt, b.holdUntil);
      b.nextSlotAt = slot + b.windowMs / limitOf(b);
      if (slot <= now) break;
      await wait(b, slot - now, 'pacing', request, refusals);
      // A 429 met by another request of the bucket while this one waited holds all of them.
      if (b.holdUntil <= clock.now()) break;
    }
    b.inFlight++;
    totals.requests++;
  };

  /** Corrects the model from the budget the service reports on an answer. */
  const observe = (b: Bucket, response: Response) => {
    const reported = headerCount(response, 'x-ratelimit-limit');
    if (reported !== undefined && reported > 0) b.reportedLimit = reported;
    const left = headerCount(response, 'x-ratelimit-remaining');
    if (left === undefined) return;
    const now = clock.now();
    // More left than before: a new window began, at the latest now (the latest is the safe guess).
    if (b.remaining === undefined || left > b.remaining) b.windowEndsAt = now + b.windowMs;
    b.remaining = left;
    // Requests still on their way may already be counted, or not yet: assume not.
    const budget = left - b.inFlight;
    if (budget <= 0) b.nextSlotAt = Math.max(b.nextSlotAt, b.windowEndsAt);
    else b.nextSlotAt = Math.max(b.nextSlotAt, now + (b.windowEndsAt - now) / budget);
  };

  const pacedSend: PacedSend = async (send, request) => {
    // The answers' X-RateLimit headers and 429s are the bucket's too: the service counts apart.
    const b = bucketOf(request);
    let refusals = 0;
    let waitedMs = 0;
    for (;;) {
      await acquire(b, request, refusals);
      let response: Response;
      try {
        response = await send();
      } finally {
        b.inFlight--;
      }
      if (response.headers.has('x-ratelimit-limit')) serviceLimit = 'reported';
      else if (serviceLimit !== 'reported') serviceLimit = response.status === 429 ? 'unknown' : 'none';
      if (response.status !== 429) {
        observe(b, response);
        return { response };
      }
      totals.rateLimited++;
      refusals++;
      const now = clock.now();
      const asked = askedWait(response.headers, now) ?? Math.max(0, b.windowEndsAt - now);
      // The refusal says when the window ends: every request of the bucket holds until then.
      b.holdUntil = Math.max(b.holdUntil, now + asked);
      b.windowEndsAt = now + asked;
      b.remaining = 0;
      if (refusals > max429Retries || waitedMs + asked > maxWaitMs) {
        totals.gaveUp++;
        return { response, gaveUp: { retryAfterMs: asked, waitedMs, refusals, maxWaitMs } };
      }
      // Free the connection: the body of a refusal is not read.
      response.body?.cancel().catch(() => {});
      await wait(b, asked, 'rate_limited', request, refusals);
      waitedMs += asked;
    }
  };

  const pacer: InternalPacer = {
    requestsPerMinute,
    [PACED_SEND]: pacedSend,
    stats: () => ({
      ...totals,
      limit: limitOf(shared),
      remaining: shared.remaining,
      unlimited: serviceLimit === 'none',
    }),
    fetch(fetchImpl) {
      if (fetchImpl !== undefined && typeof fetchImpl !== 'function')
        throw invalidOption('fetchImpl', 'must be a fetch function, or omitted for the global fetch.');
      const send: Fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
      return async (input, init) => {
        const request = new Request(input, init);
        // A request with a body is sent as a copy each time, so that it can be sent again.
        const sendOnce = () => send(request.body === null ? request : request.clone());
        const { response, gaveUp } = await pacedSend(sendOnce, {
          method: request.method,
          url: request.url,
          signal: request.signal,
        });
        if (!gaveUp) return response;
        response.body?.cancel().catch(() => {});
        throw rateLimitedError(request.method, request.url, response, gaveUp);
      };
    },
  };
  return pacer;
}

/** The sentence a paced request's `rate_limited` error ends with. */
export function pacingGiveUpAdvice(gaveUp: PacingGiveUp): string {
  return `still refused after ${gaveUp.refusals} 429s and ${seconds(gaveUp.waitedMs)} s of waiting; the service asks to wait ${seconds(gaveUp.retryAfterMs)} s more, beyond the pacer's \`maxWaitMs\` (${seconds(gaveUp.maxWaitMs)} s) or \`max429Retries\`: other users of the same token share its budget; lower \`requestsPerMinute\`, or raise \`maxWaitMs\`.`;
}

function rateLimitedError(method: string, url: string, response: Response, gaveUp: PacingGiveUp): FormsApiError {
  const safeUrl = withoutQuerySecrets(url);
  return new FormsApiError('rate_limited', `${method} ${pathOf(url)} failed with 429: ${pacingGiveUpAdvice(gaveUp)}`, {
    context: { status: 429, url: safeUrl, retryAfterMs: gaveUp.retryAfterMs, attempts: gaveUp.refusals },
    headers: rateLimitHeaders(response),
  });
}

/** Only the rate-limit headers: the pacer does not know the token, so it keeps nothing else. */
function rateLimitHeaders(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    const value = response.headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

function headerCount(response: Response, name: string): number | undefined {
  const value = response.headers.get(name);
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(unknown path)';
  }
}

function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/** `RequestPacerOptions` with every default applied. */
type ResolvedPacerOptions = Readonly<
  Required<Omit<RequestPacerOptions, 'clock' | 'onWait'>> & {
    clock: ResolvedClock;
    onWait: RequestPacerOptions['onWait'];
  }
>;

const PACER_KEYS = keysOf<RequestPacerOptions>({
  requestsPerMinute: true,
  maxWaitMs: true,
  max429Retries: true,
  onlyWhenLimited: true,
  clock: true,
  onWait: true,
});
export const DEFAULT_PACING_MAX_WAIT_MS = 120_000;
export const DEFAULT_MAX_429_RETRIES = 5;

function resolvePacerOptions(options: RequestPacerOptions): ResolvedPacerOptions {
  if (options === null || typeof options !== 'object')
    throw invalidOption('pacing', 'needs an options object such as { requestsPerMinute: 100 }.');
  refuseUnknownOptions(FormsApiError, options, PACER_KEYS, 'pacing', { prefix: 'pacing.' });
  const {
    requestsPerMinute,
    maxWaitMs = DEFAULT_PACING_MAX_WAIT_MS,
    max429Retries = DEFAULT_MAX_429_RETRIES,
    onWait,
    onlyWhenLimited = false,
  } = options;
  if (typeof requestsPerMinute !== 'number' || !Number.isFinite(requestsPerMinute) || requestsPerMinute <= 0)
    throw invalidOption(
      'pacing.requestsPerMinute',
      `must be a positive number of requests per minute, e.g. 100 for the service's limit (got ${String(requestsPerMinute)}).`,
    );
  if (typeof maxWaitMs !== 'number' || !(maxWaitMs >= 0))
    throw invalidOption(
      'pacing.maxWaitMs',
      `must be a non-negative number of milliseconds (got ${String(maxWaitMs)}).`,
    );
  integerOption(FormsApiError, max429Retries, 'pacing.max429Retries', { min: 0 });
  if (onWait !== undefined && typeof onWait !== 'function')
    throw invalidOption('pacing.onWait', 'must be a function (info) => void.');
  if (typeof onlyWhenLimited !== 'boolean') throw invalidOption('pacing.onlyWhenLimited', 'must be a boolean.');
  return { requestsPerMinute, maxWaitMs, max429Retries, clock: resolveClock(options.clock), onWait, onlyWhenLimited };
}

/**
 * The pacer a client uses: the one given, one made from options (on the client's `clock` unless
 * they name one), or none.
 */
export function resolvePacing(value: unknown, clock?: Clock): InternalPacer | undefined {
  if (value === undefined || value === false) return undefined;
  if (value !== null && typeof value === 'object' && PACED_SEND in value) return value as InternalPacer;
  if (value === null || typeof value !== 'object')
    throw invalidOption(
      'pacing',
      'must be a pacer from createRequestPacer, options such as { requestsPerMinute: 100 }, or false.',
    );
  return createRequestPacer({ clock, ...(value as RequestPacerOptions) }) as InternalPacer;
}
