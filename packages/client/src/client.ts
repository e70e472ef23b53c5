// createFormsClient: an openapi-fetch client for the forms API with the token, timeouts and
// retries applied to every call, plus resource helpers that return data and throw typed errors.
import type { Client } from 'openapi-fetch';
import type { paths } from '@forms-api/types';
import { authMiddleware } from './auth.js';
import { createClient } from './openapi-fetch.js';
import { createCaller } from './call.js';
import { resolveClientOptions, type FormsClientOptions, type ResolvedCall, type ResolvedOptions } from './options.js';
import { createRedactor } from './redact.js';
import {
  answersApi,
  formsApi,
  integrationsApi,
  submissionsApi,
  type AnswersApi,
  type FormsApi,
  type IntegrationsApi,
  type SubmissionsApi,
} from './resources.js';
import { createTransport, type Transport } from './transport.js';

/** The raw openapi-fetch surface (`GET`, `PUT`, `POST`, `DELETE`, `use`, …) plus the helpers. */
export interface FormsClient extends Client<paths> {
  readonly forms: FormsApi;
  readonly submissions: SubmissionsApi;
  readonly integrations: IntegrationsApi;
  readonly answers: AnswersApi;
}

export function createFormsClient(options: FormsClientOptions): FormsClient {
  const resolved = resolveClientOptions(options);
  const redact = createRedactor(resolved.token);
  const raw = createClient<paths>({
    baseUrl: resolved.baseUrl,
    // Raw calls use the client's settings; helpers pass a per-call transport instead.
    fetch: createTransport(resolved, resolved, redact),
  });
  raw.use(authMiddleware(resolved.token, resolved.userAgent));
  const call = createCaller(raw, resolved, redact);
  return {
    ...raw,
    ...withCallTransport(raw, (signal) => createTransport(resolved, callSettings(resolved, signal), redact)),
    forms: formsApi(call),
    submissions: submissionsApi(call),
    integrations: integrationsApi(call),
    answers: answersApi(call),
  };
}

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

/** The client's settings, with a raw call's own `signal` joined to the client's. */
function callSettings(client: ResolvedOptions, signal: AbortSignal | undefined): ResolvedCall {
  if (!signal) return client;
  return { ...client, signal: client.signal ? AbortSignal.any([client.signal, signal]) : signal };
}

/**
 * Raw methods get a per-call transport, like the helpers, that follows the call's `signal`; the
 * signal is taken off openapi-fetch's Request, since each attempt gets its own. A caller's own
 * per-call `fetch` is left alone.
 */
function withCallTransport(
  raw: Client<paths>,
  transportFor: (signal: AbortSignal | undefined) => Transport,
): Partial<Client<paths>> {
  type Init = { signal?: AbortSignal | null; fetch?: unknown } | undefined;
  const route = (init: Init): Init => {
    if (init?.fetch) return init;
    return { ...init, signal: undefined, fetch: transportFor(init?.signal ?? undefined) };
  };
  const out: Record<string, unknown> = {};
  for (const method of METHODS) {
    const send = raw[method] as (url: string, init: Init) => unknown;
    out[method] = (url: string, init: Init) => send(url, route(init));
  }
  const request = raw.request as (method: string, url: string, init: Init) => unknown;
  out['request'] = (method: string, url: string, init: Init) => request(method, url, route(init));
  return out as Partial<Client<paths>>;
}
