// One helper call: resolves its options, sends it through openapi-fetch with a per-call transport,
// and turns every failure (a non-2xx, a network error, an abort, a body that is not JSON) into a
// FormsApiError.
import type { Client } from 'openapi-fetch';
import type { paths } from '@forms-api/types';
import { errorFromResponse, FormsApiError, operationLabel } from './errors.js';
import { describeOperation } from './operations.js';
import { resolveCallOptions, type CallOptions, type ResolvedOptions } from './options.js';
import type { Redact } from './redact.js';
import { createTransport, type CallRecord } from './transport.js';

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

export interface CallInit {
  params?: { path?: Record<string, string | number>; query?: Record<string, unknown> };
  body?: unknown;
}

export type Caller = <T>(method: Method, path: string, init: CallInit, options: CallOptions | undefined) => Promise<T>;

export function createCaller(raw: Client<paths>, client: ResolvedOptions, redact: Redact): Caller {
  // openapi-fetch's request() is typed per path; the helpers that call this are typed instead.
  const request = raw.request as unknown as (
    method: string,
    path: string,
    init: CallInit & { fetch: (r: Request) => Promise<Response> },
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

  return async <T>(method: Method, path: string, init: CallInit, options: CallOptions | undefined) => {
    const call = resolveCallOptions(client, options);
    const record: CallRecord = { attempts: 0 };
    const fetch = createTransport(client, call, redact, record);
    let result: Awaited<ReturnType<typeof request>>;
    try {
      result = await request(method, path, { ...init, fetch });
    } catch (error) {
      throw toFormsApiError(error, method, path, init, call.signal, record.attempts, client, redact);
    }
    const { response } = result;
    if (!response.ok) {
      const url = response.url || expandUrl(client.baseUrl, path, init);
      throw errorFromResponse({
        status: response.status,
        error: result.error,
        headers: response.headers,
        url,
        operation: describeOperation(method, url, client.basePath),
        attempts: record.attempts,
        redact,
        now: client.clock.now(),
      });
    }
    return result.data as T;
  };
}

function expandUrl(baseUrl: string, path: string, init: CallInit): string {
  const params = init.params?.path ?? {};
  return baseUrl + path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

/** Failures after the response started (body read timed out or aborted, invalid JSON). */
function toFormsApiError(
  error: unknown,
  method: Method,
  path: string,
  init: CallInit,
  signal: AbortSignal | undefined,
  attempts: number,
  client: ResolvedOptions,
  redact: Redact,
): FormsApiError {
  if (error instanceof FormsApiError) return error;
  const url = expandUrl(client.baseUrl, path, init);
  const operation = describeOperation(method, url, client.basePath);
  const label = operationLabel(operation);
  const name = error instanceof Error ? error.name : '';
  const [kind, message] = signal?.aborted
    ? (['aborted', `${label} was aborted by the caller's signal.`] as const)
    : name === 'TimeoutError'
      ? (['timeout', `${label} timed out while reading the response body: raise \`timeoutMs\`.`] as const)
      : name === 'SyntaxError'
        ? (['http', `${label} answered with a success status but a body that is not JSON: is \`baseUrl\` the API host (not the web app)?`] as const)
        : (['network', `${label} failed while reading the response: the connection broke; try again.`] as const);
  return new FormsApiError({ kind, message, operation, url: redact(url), attempts: Math.max(1, attempts) });
}
