// createFormsClient: an openapi-fetch client for the forms API with the token, timeouts and
// retries applied to every call, plus resource helpers that return data and throw typed errors.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '@forms-api/types';
import { authMiddleware } from './auth.js';
import { createCaller } from './call.js';
import { resolveClientOptions, type FormsClientOptions } from './options.js';
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
    ...followCallerSignals(raw, createTransport(resolved, resolved, redact, undefined, true)),
    forms: formsApi(call),
    submissions: submissionsApi(call),
    integrations: integrationsApi(call),
    answers: answersApi(call),
  };
}

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

/**
 * Raw methods that pass a `signal` get the transport that follows the Request's signal; the
 * others skip that work. A caller's own per-call `fetch` is left alone.
 */
function followCallerSignals(raw: Client<paths>, transport: Transport): Partial<Client<paths>> {
  type Init = { signal?: unknown; fetch?: unknown } | undefined;
  const route = (init: Init): Init => (init?.signal && !init.fetch ? { ...init, fetch: transport } : init);
  const out: Record<string, unknown> = {};
  for (const method of METHODS) {
    const send = raw[method] as (url: string, init: Init) => unknown;
    out[method] = (url: string, init: Init) => send(url, route(init));
  }
  const request = raw.request as (method: string, url: string, init: Init) => unknown;
  out['request'] = (method: string, url: string, init: Init) => request(method, url, route(init));
  return out as Partial<Client<paths>>;
}
