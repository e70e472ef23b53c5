// The one place the suite creates API clients: the toolkit's own client (its raw typed surface,
// retries off, so a contract check sees the first answer), with a recording fetch so every
// request can be reproduced as a curl line in the report. Requests without a token (the 401
// cases and the public operations) use openapi-fetch directly, since the client refuses to be
// built without one.
import createClient, { type Client } from 'openapi-fetch';
import { createFormsClient, isFormsApiError } from '@forms-api/client';
import { readPrefix, webStreamSource, type BoundedBody } from '@forms-api/internal/bounded-body';
import type { paths } from '@forms-api/types';
import type { Exchange } from '../model.js';
import type { TargetPacing, TrafficMeter } from './target.js';
import { MAX_RESPONSE_BYTES } from './limits.js';

export type RawClient = Client<paths>;

/** Collects the exchanges of one client; owned by a check run, never shared globally. */
export class ExchangeRecorder {
  readonly #exchanges: Exchange[] = [];
  /** `onRecord`: told of each exchange as it is recorded (the target's coverage). */
  constructor(private readonly onRecord?: (exchange: Exchange) => void) {}
  add(exchange: Exchange): void {
    this.#exchanges.push(exchange);
    this.onRecord?.(exchange);
  }
  get size(): number {
    return this.#exchanges.length;
  }
  /** Exchanges recorded since `mark` (a previous `size`). */
  since(mark: number): Exchange[] {
    return this.#exchanges.slice(mark);
  }
  last(): Exchange | undefined {
    return this.#exchanges.at(-1);
  }
}

const headersToRecord = (headers: Headers): Record<string, string> => Object.fromEntries([...headers.entries()]);

export { MAX_RESPONSE_BYTES } from './limits.js';

/** Statuses whose Response must be built without a body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Reads a body up to `limit` bytes, then cancels the stream (which closes the connection). */
async function readUpTo(body: ReadableStream<Uint8Array> | null, limit: number): Promise<BoundedBody> {
  if (!body) return { bytes: new Uint8Array(0), exceeded: false };
  const read = await readPrefix(webStreamSource(body), limit);
  if (read.ok) return read.value;
  // The stream's own error (a reset connection), recorded as the transport's like any other.
  throw read.error.cause;
}

/**
 * A fetch that adds the check's extra headers, records the request and the response text, and hands
 * the client a response rebuilt from the bytes it read: at most `maxBodyBytes` of them, so neither
 * the recorder nor the client's own parser ever holds more. `base` bounds each attempt (a
 * `targetFetch`: under the pacer, so a wait for the rate limit is never cut short by a timeout).
 */
export function recordingFetch(
  recorder: ExchangeRecorder,
  extraHeaders: Record<string, string>,
  base: typeof fetch,
  maxBodyBytes = MAX_RESPONSE_BYTES,
): typeof fetch {
  return async (input, init) => {
    const original = input instanceof Request ? input : new Request(input, init);
    const headers = new Headers(original.headers);
    for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
    // A contract check judges the tenant's own answer: a redirect (the file download's 302) is the
    // answer, not a hop to follow to a host the suite does not test.
    const request = new Request(original, { headers, redirect: 'manual' });
    const requestBody = request.body ? await request.clone().text() : undefined;
    const base_: Omit<Exchange, 'status'> = {
      method: request.method,
      url: request.url,
      requestHeaders: headersToRecord(request.headers),
      ...(requestBody !== undefined ? { requestBody } : {}),
    };
    let response: Response;
    let read: BoundedBody;
    try {
      response = await base(request);
      read = await readUpTo(response.body, maxBodyBytes);
    } catch (error) {
      // The pacer waited out what it could; the last 429 is the answer, with the wait it asked for.
      if (isFormsApiError(error) && error.kind === 'rate_limited') {
        const headers = new Headers(error.headers ?? {});
        recorder.add({
          ...base_,
          status: 429,
          responseHeaders: headersToRecord(headers),
          responseBody: '',
          rateLimited: { retryAfterMs: error.retryAfterMs ?? 0, refusals: error.attempts ?? 0 },
        });
        return new Response(null, { status: 429, headers });
      }
      recorder.add({ ...base_, transportError: describeTransportError(error) });
      throw error;
    }
    recorder.add({
      ...base_,
      status: response.status,
      responseHeaders: headersToRecord(response.headers),
      responseBody: new TextDecoder().decode(read.bytes),
      ...(read.exceeded ? { responseBodyLimit: maxBodyBytes } : {}),
    });
    // The client parses this copy (`slice`: a Response takes bytes of its own ArrayBuffer); a status
    // a Response cannot carry throws here, after recording.
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : read.bytes.slice(), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

export interface HttpClientOptions {
  readonly baseUrl: string;
  /** Bearer token; omitted for the "no token" cases and public operations. */
  readonly token?: string;
  readonly recorder: ExchangeRecorder;
  /** Extra headers on every request (Prism's `Prefer` is set per request instead). */
  readonly headers?: Record<string, string>;
  /** The target's pacing: every client of a target spends one budget. */
  readonly pacing?: TargetPacing;
  readonly traffic?: TrafficMeter;
}

/** Longer than any wait the pacer allows one request (its bound is 120 s of 429s, plus the pacing before each send). */
const PACED_CLIENT_TIMEOUT_MS = 15 * 60_000;

/** Bounds each request it sends by `timeoutMs` (headers and body), on top of the request's own signal. */
function timedFetch(base: typeof fetch, timeoutMs: number): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    return base(new Request(request, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) }));
  };
}

/** `TypeError: fetch failed` says nothing; its cause (`UND_ERR_SOCKET: other side closed`) does. */
function describeTransportError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = cause ? [cause.code, cause.message].filter((part) => typeof part === 'string' && part).join(': ') : '';
  return `${error.name}: ${error.message}${detail ? ` (${detail})` : ''}`;
}

/**
 * Methods HTTP defines as safe: sending one again has no effect at all. Not PUT or DELETE: a
 * dropped connection may still have reached the service, which re-runs an update's side effects
 * (ledger `update-submission-emits-webhook`; the client's `decideRetry` holds back for the same
 * reason), and a second DELETE would answer 404 to a check that expects 200.
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True for a connection that closed before any answer: typically a kept-alive socket the tenant
 * closed just as it was reused (undici's idle timer can fire late on a loaded machine). No answer
 * came, so there is nothing to judge.
 */
function isDroppedConnection(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

/**
 * Sends a safe request once more, on a new connection, when its connection dropped before any
 * answer; a second failure is the tenant's (and reported). undici does not resend by itself.
 */
function resentOnDroppedConnection(attempt: typeof fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (!SAFE_METHODS.has(request.method)) return attempt(request);
    const again = request.clone();
    try {
      return await attempt(request);
    } catch (error) {
      if (!isDroppedConnection(error) || again.signal.aborted) throw error;
      return attempt(again);
    }
  };
}

/**
 * Sends through the pacer while the tenant reports a limit (the service does on every answer). A
 * tenant whose answers carry no `X-RateLimit-Limit` (a sandbox with its limit off, a proxy of your
 * own) is not spaced; its first 429 puts the pacer back in charge, and that request is sent again
 * through it.
 */
function pacedWhileLimited(pacing: TargetPacing, attempt: typeof fetch): typeof fetch {
  const paced = pacing.pacer.fetch(attempt) as typeof fetch;
  return async (input, init) => {
    if (pacing.tenantLimit !== 'none') {
      const response = await paced(input, init);
      // Only a tenant that has never reported a limit is judged unlimited: one answer without the
      // header (a redirect to storage, a file) must not stop the pacing of a tenant that has one.
      if (response.headers.has('x-ratelimit-limit')) pacing.tenantLimit = 'reported';
      else if (response.status !== 429 && pacing.tenantLimit === 'unknown') pacing.tenantLimit = 'none';
      return response;
    }
    const request = new Request(input, init);
    const again = request.clone();
    const response = await attempt(request);
    if (response.headers.has('x-ratelimit-limit')) pacing.tenantLimit = 'reported';
    if (response.status !== 429) return response;
    if (pacing.tenantLimit === 'none') pacing.tenantLimit = 'unknown';
    await response.body?.cancel().catch(() => {});
    return paced(again);
  };
}

/**
 * The fetch a target's requests go through: each attempt bounded by the request timeout, under the
 * target's pacer when it has one (so time spent waiting for the rate limit is not an attempt's
 * time), and counted.
 */
export function targetFetch(
  options: { pacing?: TargetPacing | undefined; traffic?: TrafficMeter | undefined },
  timeoutMs = 20_000,
): typeof fetch {
  const attempt = resentOnDroppedConnection(timedFetch(globalThis.fetch, timeoutMs));
  const base: typeof fetch = options.pacing ? pacedWhileLimited(options.pacing, attempt) : attempt;
  const traffic = options.traffic;
  const counted: typeof fetch = traffic
    ? (input, init) => {
        traffic.requests++;
        return base(input, init);
      }
    : base;
  return counted;
}

export function createHttpClient(options: HttpClientOptions): RawClient {
  const fetch = recordingFetch(options.recorder, options.headers ?? {}, targetFetch(options));
  // Each attempt is bounded under the pacer (targetFetch); the client's own timer would also count
  // the time a request waits for the rate limit, so with a pacer it only guards against a hang.
  if (options.token)
    return createFormsClient({
      baseUrl: options.baseUrl,
      token: options.token,
      fetch,
      retry: false,
      timeoutMs: options.pacing ? PACED_CLIENT_TIMEOUT_MS : 20_000,
    });
  return createClient<paths>({ baseUrl: options.baseUrl, fetch });
}
