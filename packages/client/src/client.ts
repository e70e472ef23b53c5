// createFormsClient: an openapi-fetch client for the forms API with the token, timeouts and
// retries applied to every call, plus resource helpers that return data and throw typed errors.
import type { Client } from 'openapi-fetch';
import type { paths } from '@forms-api/types';
import { authMiddleware } from './auth.js';
import { createClient } from './openapi-fetch.js';
import { createCaller, runCall, type CallContext } from './call.js';
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
import type { Transport } from './transport.js';

/** The raw openapi-fetch surface (`GET`, `PUT`, `POST`, `DELETE`, `use`, …) plus the helpers. */
export interface FormsClient extends Client<paths> {
  readonly forms: FormsApi;
  readonly submissions: SubmissionsApi;
  readonly integrations: IntegrationsApi;
  readonly answers: AnswersApi;
}

export function createFormsClient(options: FormsClientOptions): FormsClient {
  const client = resolveClientOptions(options);
  const ctx: CallContext = {
    client,
    scope: { basePath: client.basePath, redact: createRedactor(client.token), now: client.clock.now },
  };
  // Every call, raw or helper, passes its own transport (see withCallTransport and createCaller).
  const raw = createClient<paths>({ baseUrl: client.baseUrl });
  raw.use(authMiddleware(client.token, client.userAgent));
  const call = createCaller(raw, ctx);
  return {
    ...raw,
    ...withCallTransport(raw, ctx),
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
function withCallTransport(raw: Client<paths>, ctx: CallContext): Partial<Client<paths>> {
  type Init = { signal?: AbortSignal | null; fetch?: unknown } | undefined;
  const route = <R>(init: Init, send: (init: Init) => Promise<R>): Promise<R> => {
    if (init?.fetch) return send(init);
    const call = callSettings(ctx.client, init?.signal ?? undefined);
    return runCall(ctx, call, (fetch: Transport) => send({ ...init, signal: undefined, fetch }));
  };
  const out: Record<string, unknown> = {};
  for (const method of METHODS) {
    const send = raw[method] as (url: string, init: Init) => Promise<unknown>;
    out[method] = (url: string, init: Init) => route(init, (routed) => send(url, routed));
  }
  const request = raw.request as (method: string, url: string, init: Init) => Promise<unknown>;
  out['request'] = (method: string, url: string, init: Init) => route(init, (routed) => request(method, url, routed));
  return out as Partial<Client<paths>>;
}
