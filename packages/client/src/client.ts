// createFormsClient: an openapi-fetch client for the forms API with the token, timeouts and
// retries applied to every call, plus resource helpers that return data and throw typed errors.
import type { Client } from 'openapi-fetch';
import { OPERATIONS, type paths } from '@forms-api/types';
import { pathSegment } from './arguments.js';
import { baseHeaders, withoutTokenIfPublic } from './auth.js';
import { createClient } from './openapi-fetch.js';
import { createCaller } from './call.js';
import { operationMethods, type OperationMethods } from './operation-methods.js';
import {
  CALL_KEYS,
  mergeCallOptions,
  resolveClientOptions,
  type CallOptions,
  type FormsClientOptions,
  type ResolvedCall,
  type ResolvedOptions,
} from './options.js';
import { resolvePacing } from './pacing.js';
import { createRedactor } from './redact.js';
import { callFetch, type ClientContext } from './request.js';
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

/**
 * The raw openapi-fetch surface (`GET`, `PUT`, `POST`, `DELETE`, `use`, …), a typed method for
 * every operation of the spec (`operations`), and the helpers.
 */
export interface FormsClient extends Client<paths> {
  /**
   * Every operation of the spec by operationId: `operations.getForm({ path: { form: 42 } })`.
   * Returns the 200 body typed by the spec (a file's unread Response) and throws FormsApiError,
   * like the helpers.
   */
  readonly operations: OperationMethods;
  readonly forms: FormsApi;
  readonly submissions: SubmissionsApi;
  readonly integrations: IntegrationsApi;
  readonly answers: AnswersApi;
}

export function createFormsClient(options: FormsClientOptions): FormsClient {
  const { client, raw, ctx, call } = connect(options);
  const operations = operationMethods(call, OPERATIONS);
  return {
    ...raw,
    ...withCallFetch(raw, ctx),
    operations,
    forms: formsApi(operations),
    submissions: submissionsApi(call, operations, client),
    integrations: integrationsApi(operations),
    answers: answersApi(operations),
  };
}

/**
 * The parts of a client under its methods: the settings, the raw openapi-fetch client, the context
 * every call shares and the one Caller (a test makes methods from a table of its own over it).
 */
export function connect(options: FormsClientOptions) {
  const client = resolveClientOptions(options);
  const headers = baseHeaders(client.token, client.userAgent);
  // Every call, raw or helper, passes its own fetch (see withCallFetch and createCaller).
  const raw = createClient<paths>({ baseUrl: client.baseUrl, headers });
  const ctx: ClientContext = {
    client,
    scope: { basePath: client.basePath, redact: createRedactor(client.token ?? []), now: client.clock.now },
    pacer: resolvePacing(options.pacing, options.clock),
  };
  return { client, raw, ctx, call: createCaller(raw, ctx) };
}

type Init =
  | ({
      signal?: AbortSignal | null;
      fetch?: unknown;
      parseAs?: string;
      params?: { header?: object; path?: object };
    } & Omit<CallOptions, 'signal'>)
  | undefined;

/**
 * The client's settings with a raw call's own: its `signal` joined to the client's, and the call
 * options it names beside openapi-fetch's (`timeoutMs`, `retry`, `maxResponseBytes`), as a
 * helper's options are.
 */
function callSettings(client: ResolvedOptions, init: Init): ResolvedCall {
  // Every call option by its one list, so an option added to CallOptions reaches raw calls too
  // (openapi-fetch takes `signal: null` for none).
  const named = CALL_KEYS.filter((key) => init?.[key as keyof CallOptions] != null);
  if (named.length === 0) return client;
  return mergeCallOptions(client, Object.fromEntries(named.map((key) => [key, init![key as keyof CallOptions]])));
}

/**
 * Raw methods get a fetch of their own per call, like the helpers, that follows the call's
 * `signal` (joined to each attempt's timeout). A caller's own per-call `fetch` is left alone.
 */
function withCallFetch(raw: Client<paths>, ctx: ClientContext): Partial<Client<paths>> {
  const route = <R>(url: string, given: Init, send: (init: Init) => Promise<R>): Promise<R> => {
    let call: ResolvedCall;
    try {
      for (const [name, value] of Object.entries(given?.params?.path ?? {}))
        if (typeof value === 'string') pathSegment(value, `params.path.${name}`);
      call = callSettings(ctx.client, given);
    } catch (error) {
      return Promise.reject(error);
    }
    const init = withoutTokenIfPublic(url, given);
    if (init?.fetch) return send(init);
    const parseAs = init?.parseAs ?? 'json';
    const fetch = callFetch(
      ctx,
      call,
      parseAs === 'json'
        ? { kind: 'json', throwOnError: false }
        : { kind: 'stream', throwOnError: false, okCap: call.maxResponseBytes },
    );
    return send({ ...init, fetch });
  };
  const out: Record<string, unknown> = {};
  // Every method openapi-fetch's client has (its own list: GET … TRACE), so none skips the fetch.
  for (const method of Object.keys(raw).filter((key) => /^[A-Z]+$/.test(key))) {
    const send = raw[method as keyof Client<paths>] as (url: string, init: Init) => Promise<unknown>;
    out[method] = (url: string, init: Init) => route(url, init, (routed) => send(url, routed));
  }
  const request = raw.request as (method: string, url: string, init: Init) => Promise<unknown>;
  out['request'] = (method: string, url: string, init: Init) =>
    route(url, init, (routed) => request(method, url, routed));
  return out as Partial<Client<paths>>;
}
