// The one place the suite creates API clients: the toolkit's own client (its raw typed surface,
// retries off, so a contract check sees the first answer), with a recording fetch so every
// request can be reproduced as a curl line in the report. Requests without a token (the 401
// cases and the public operations) use openapi-fetch directly, since the client refuses to be
// built without one.
import createClient, { type Client } from 'openapi-fetch';
import { createFormsClient } from '@forms-api/client';
import type { paths } from '@forms-api/types';
import type { Exchange } from '../model.js';

export type RawClient = Client<paths>;

/** Collects the exchanges of one client; owned by a check run, never shared globally. */
export class ExchangeRecorder {
  readonly #exchanges: Exchange[] = [];
  add(exchange: Exchange): void {
    this.#exchanges.push(exchange);
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

/**
 * A fetch that adds the check's extra headers, records the request and the raw response text,
 * then returns the response untouched. It bounds each request by `timeoutMs` on top of any
 * signal the request already carries.
 */
export function recordingFetch(
  recorder: ExchangeRecorder,
  extraHeaders: Record<string, string> = {},
  base: typeof fetch = globalThis.fetch,
  timeoutMs = 20_000,
): typeof fetch {
  return async (input, init) => {
    const original = input instanceof Request ? input : new Request(input, init);
    const headers = new Headers(original.headers);
    for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
    const request = new Request(original, { headers, signal: AbortSignal.any([original.signal, AbortSignal.timeout(timeoutMs)]) });
    const requestBody = request.body ? await request.clone().text() : undefined;
    const base_: Omit<Exchange, 'status'> = {
      method: request.method,
      url: request.url,
      requestHeaders: headersToRecord(request.headers),
      ...(requestBody !== undefined ? { requestBody } : {}),
    };
    try {
      const response = await base(request);
      const responseBody = await response.clone().text();
      recorder.add({ ...base_, status: response.status, responseHeaders: headersToRecord(response.headers), responseBody });
      return response;
    } catch (error) {
      recorder.add({ ...base_, transportError: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
      throw error;
    }
  };
}

export interface HttpClientOptions {
  readonly baseUrl: string;
  /** Bearer token; omitted for the "no token" cases and public operations. */
  readonly token?: string;
  readonly recorder: ExchangeRecorder;
  /** Extra headers on every request (Prism's `Prefer` is set per request instead). */
  readonly headers?: Record<string, string>;
}

export function createHttpClient(options: HttpClientOptions): RawClient {
  const fetch = recordingFetch(options.recorder, options.headers);
  if (options.token) return createFormsClient({ baseUrl: options.baseUrl, token: options.token, fetch, retry: false, timeoutMs: 20_000 });
  return createClient<paths>({ baseUrl: options.baseUrl, fetch });
}
