// The one place the suite creates API clients: openapi-fetch's raw typed surface, with a recording
// fetch so every request can be reproduced as a curl line in the report.
//
// AT MERGE: replace `createClient` below with `createFormsClient({ baseUrl, token, fetch, retry: false })`
// from @forms-api/client. It exposes the same raw surface (`client.GET/PUT/POST/DELETE`); `retry: false`
// because a contract test must see the first answer, not a retried one. Recording is done in the
// `fetch` we pass (not in a middleware) so it survives that switch unchanged.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
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

/** A fetch that records the request and the raw response text, then returns the response untouched. */
export function recordingFetch(recorder: ExchangeRecorder, base: typeof fetch = globalThis.fetch, timeoutMs = 20_000): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const requestBody = request.body ? await request.clone().text() : undefined;
    const base_: Omit<Exchange, 'status'> = {
      method: request.method,
      url: request.url,
      requestHeaders: headersToRecord(request.headers),
      ...(requestBody !== undefined ? { requestBody } : {}),
    };
    try {
      const response = await base(request, { signal: AbortSignal.timeout(timeoutMs) });
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
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: recordingFetch(options.recorder),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  if (options.token) {
    const token = options.token;
    const auth: Middleware = {
      onRequest({ request }) {
        request.headers.set('Authorization', `Bearer ${token}`);
        return request;
      },
    };
    client.use(auth);
  }
  return client;
}
