// createFormsClient: an openapi-fetch client for the forms API with the token, timeouts and
// retries applied to every call, plus resource helpers that return data and throw typed errors.
import type { Client, Middleware } from 'openapi-fetch';
import type { paths } from '@forms-api/types';
import { baseHeaders, withoutTokenIfPublic } from './auth.js';
import { createClient } from './openapi-fetch.js';
import { createCaller, runCall, type CallContext } from './call.js';
import { resolveClientOptions, type FormsClientOptions, type ResolvedCall, type ResolvedOptions } from './options.js';
import { resolvePacing } from './pacing.js';
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
import { attemptTimers } from './attempt-timers.js';
import { directRequests } from './direct.js';
import { asTransport } from './transport.js';

/** The raw openapi-fetch surface (`GET`, `PUT`, `POST`, `DELETE`, `use`, …) plus the helpers. */
export interface FormsClient extends Client<paths> {
  readonly forms: FormsApi;
  readonly submissions: SubmissionsApi;
  readonly integrations: IntegrationsApi;
  readonly answers: AnswersApi;
}

export function createFormsClient(options: FormsClientOptions): FormsClient {
  const client = resolveClientOptions(options);
  const headers = baseHeaders(client.token, client.userAgent);
  // Every call, raw or helper, passes its own transport (see withCallTransport and createCaller).
  const raw = createClient<paths>({ baseUrl: client.baseUrl, headers });
  const middleware = trackMiddleware(raw);
  const ctx: CallContext = {
    client,
    scope: { basePath: client.basePath, redact: createRedactor(client.token), now: client.clock.now },
    retained: new WeakMap(),
    timers: attemptTimers(),
    direct: directRequests(client.baseUrl, headers),
    hasMiddleware: () => middleware.registered.length > 0,
    pacer: resolvePacing(options.pacing),
  };
  const call = createCaller(raw, ctx);
  return {
    ...raw,
    use: middleware.use,
    eject: middleware.eject,
    ...withCallTransport(raw, ctx),
    forms: formsApi(call),
    submissions: submissionsApi(call, client),
    integrations: integrationsApi(call),
    answers: answersApi(call),
  };
}

/**
 * openapi-fetch's use/eject, keeping count of what is registered: helpers skip openapi-fetch's
 * per-call work when no middleware would see it.
 */
function trackMiddleware(raw: Client<paths>) {
  const registered: Middleware[] = [];
  return {
    registered,
    use(...middleware: Middleware[]) {
      // One at a time, so that the count matches when openapi-fetch rejects one midway.
      for (const m of middleware) {
        raw.use(m);
        if (m) registered.push(m);
      }
    },
    eject(...middleware: Middleware[]) {
      raw.eject(...middleware);
      for (const m of middleware) {
        const i = registered.indexOf(m);
        if (i !== -1) registered.splice(i, 1);
      }
    },
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
  type Init = { signal?: AbortSignal | null; fetch?: unknown; params?: { header?: object } } | undefined;
  const route = <R>(url: string, given: Init, send: (init: Init) => Promise<R>): Promise<R> => {
    const init = withoutTokenIfPublic(url, given);
    if (init?.fetch) return send(init);
    const call = callSettings(ctx.client, init?.signal ?? undefined);
    return runCall(ctx, call, (sender) => send({ ...init, signal: undefined, fetch: asTransport(sender) }));
  };
  const out: Record<string, unknown> = {};
  for (const method of METHODS) {
    const send = raw[method] as (url: string, init: Init) => Promise<unknown>;
    out[method] = (url: string, init: Init) => route(url, init, (routed) => send(url, routed));
  }
  const request = raw.request as (method: string, url: string, init: Init) => Promise<unknown>;
  out['request'] = (method: string, url: string, init: Init) => route(url, init, (routed) => request(method, url, routed));
  return out as Partial<Client<paths>>;
}
