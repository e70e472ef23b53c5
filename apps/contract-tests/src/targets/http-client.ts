// The one place the suite creates API clients: the toolkit's own client, whose transport is the
// only one a request goes through (its timeout, its response cap, the target's pacer), with its
// retries off but for a safe request that got no answer. Its `fetch` records what went on the
// wire, so every request can be reproduced as a curl line in the report.
import type { Client } from 'openapi-fetch';
import { createFormsClient, isFormsApiError, type RequestPacer, type RetryEvent } from '@forms-api/client';
import type { paths } from '@forms-api/types';
import type { Exchange } from '../model.js';
import type { TrafficMeter } from './target.js';
import { MAX_RESPONSE_BYTES, REQUEST_TIMEOUT_MS } from './limits.js';

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

  /**
   * Runs one client call; its answer is its last exchange, with what the client said of it: a body
   * over the client's cap is marked with the cap, and with `paced` a 429 is one the pacer stopped
   * waiting out, with the 429s it met counted. `thrown`: what the call threw.
   */
  async answer(paced: boolean, call: () => Promise<unknown>): Promise<{ answer?: Exchange; thrown?: unknown }> {
    const mark = this.size;
    let thrown: unknown;
    try {
      await call();
    } catch (error) {
      thrown = error;
    }
    const sent = this.since(mark);
    const last = sent.at(-1);
    if (!last) return { thrown };
    let answer = last;
    const limit = isFormsApiError(thrown) && thrown.kind === 'response_too_large' ? thrown.context.limit : undefined;
    if (limit !== undefined) answer = { ...answer, responseBodyLimit: limit };
    if (paced && last.status === 429) {
      let refusals = 0;
      while (sent[sent.length - 1 - refusals]?.status === 429) refusals++;
      answer = { ...answer, rateLimited: { refusals } };
    }
    this.#exchanges[mark + sent.length - 1] = answer;
    return { answer, thrown };
  }
}

const headersToRecord = (headers: Headers): Record<string, string> => Object.fromEntries([...headers.entries()]);

/** `TypeError: fetch failed` says nothing; its cause (`UND_ERR_SOCKET: other side closed`) does. */
function describeTransportError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = cause ? [cause.code, cause.message].filter((part) => typeof part === 'string' && part).join(': ') : '';
  return `${error.name}: ${error.message}${detail ? ` (${detail})` : ''}`;
}

/**
 * The client's `fetch`: adds the check's extra headers, sends one attempt and records it, with the
 * response bytes the client read (within its cap and timeout) once it stops reading. It neither
 * bounds nor resends anything: the client does.
 */
function recordingFetch(
  recorder: ExchangeRecorder,
  extraHeaders: Record<string, string>,
  traffic?: TrafficMeter,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers = new Headers(request.headers);
    for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
    const requestBody = request.body ? await request.clone().text() : undefined;
    const sent: Omit<Exchange, 'status'> = {
      method: request.method,
      url: request.url,
      requestHeaders: headersToRecord(headers),
      ...(requestBody !== undefined ? { requestBody } : {}),
    };
    if (traffic) traffic.requests++;
    let response: Response;
    try {
      // A contract check judges the tenant's own answer: a redirect (the file download's 302) is the
      // answer, not a hop to follow to a host the suite does not test. The runtime's fetch builds
      // the Request it sends from (request, init) and holds it while it waits; the client holds
      // `request`, whose signal carries the attempt's timeout.
      response = await fetch(request, { headers, redirect: 'manual' });
    } catch (error) {
      recorder.add({ ...sent, transportError: describeTransportError(error) });
      throw error;
    }
    const answer = { ...sent, status: response.status, responseHeaders: headersToRecord(response.headers) };
    if (response.body === null || response.headers.get('content-length') === '0') {
      recorder.add({ ...answer, responseBody: '' });
      return response;
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let recorded = false;
    const record = (exchange: Exchange) => {
      if (!recorded) recorder.add(exchange);
      recorded = true;
    };
    const read = () => ({ ...answer, responseBody: new TextDecoder().decode(Buffer.concat(chunks)) });
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            record(read());
            controller.close();
          } else {
            chunks.push(chunk.value);
            controller.enqueue(chunk.value);
          }
        } catch (error) {
          // The body broke off (a reset, the client's timeout): no whole answer came.
          record({ ...sent, transportError: describeTransportError(error) });
          controller.error(error);
        }
      },
      // The client stopped reading: at its cap, or an answer it does not read (a 429 waited out).
      cancel(reason) {
        record(read());
        return reader.cancel(reason);
      },
    });
    try {
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      // A status a Response cannot carry (999): recorded as it came; the client takes it for no answer.
      await reader.cancel().catch(() => {});
      record({ ...answer, responseBody: '' });
      throw error;
    }
  };
}

/** Methods HTTP defines as safe: sending one again has no effect at all. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Retries off, but for a safe request that got no answer: typically a kept-alive socket the tenant
 * closed just as it was reused (undici's idle timer can fire late on a loaded machine), so there
 * is nothing to judge. No status is ever sent again, nor a timed-out request. Not PUT or DELETE: a
 * dropped connection may still have reached the service, which re-runs an update's side effects
 * (ledger `update-submission-emits-webhook`), and a second DELETE would answer 404.
 */
const RESEND_UNANSWERED_READS = {
  retries: 1,
  baseDelayMs: 0,
  onRetry: ({ reason, operation }: RetryEvent) => reason === 'network' && SAFE_METHODS.has(operation.method),
} as const;

export interface HttpClientOptions {
  readonly baseUrl: string;
  /** Bearer token; omitted for the "no token" cases and public operations. */
  readonly token?: string;
  readonly recorder: ExchangeRecorder;
  /** Extra headers on every request (Prism's `Prefer` is set per request instead). */
  readonly headers?: Record<string, string>;
  /** The target's pacer: every client of a target spends one budget. */
  readonly pacer?: RequestPacer;
  readonly traffic?: TrafficMeter;
}

export function createHttpClient(options: HttpClientOptions): RawClient {
  return createFormsClient({
    baseUrl: options.baseUrl,
    token: options.token ?? null,
    fetch: recordingFetch(options.recorder, options.headers ?? {}, options.traffic),
    // Each send's own; waits for the rate limit come before it and are not part of it.
    timeoutMs: REQUEST_TIMEOUT_MS,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    retry: RESEND_UNANSWERED_READS,
    ...(options.pacer ? { pacing: options.pacer } : {}),
  });
}
