// One helper call: the operation named by its operationId (method and path from the spec's
// table), sent through openapi-fetch with a fetch of its own (request.ts), which returns the 2xx
// answer or throws the call's FormsApiError.
import type { Client } from 'openapi-fetch';
import type { OperationId, operations, paths } from '@forms-api/types';
import { withoutToken } from './auth.js';
import { operation, type OperationRow } from './operations.js';
import { resolveCallOptions, type CallOptions } from './options.js';
import { callFetch, type ClientContext } from './request.js';

export interface CallInit {
  params?: {
    readonly path?: Readonly<Record<string, string | number>>;
    readonly query?: Readonly<Record<string, unknown>>;
  };
  body?: unknown;
  /** An exact query string (`?a=1&b=2`) to send instead of `params.query`, e.g. a signed URL's. */
  search?: string;
}

/** The JSON body of an operation's 200 answer, as the spec types it. */
export type SuccessBody<Id extends OperationId> = operations[Id]['responses'] extends {
  200: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export interface Caller {
  /** Sends the operation and returns its parsed 2xx body; throws FormsApiError otherwise. */
  <Id extends OperationId>(id: Id, init: CallInit, options: CallOptions | undefined): Promise<SuccessBody<Id>>;
  /** The same for an operation given as its row of a table (the generated methods), untyped. */
  (spec: OperationRow, init: CallInit, options: CallOptions | undefined): Promise<unknown>;
  /**
   * Sends the operation and returns the 2xx Response with its body unread (a download), capped
   * at the call's own `maxResponseBytes` only: the client does not read it. Error bodies are read
   * and capped as usual.
   */
  stream(id: OperationId | OperationRow, init: CallInit, options: CallOptions | undefined): Promise<Response>;
}

type Answer = { data?: unknown; response: Response };

export function createCaller(raw: Client<paths>, ctx: ClientContext): Caller {
  // openapi-fetch's request() is typed per path; the helpers that call this are typed instead.
  const request = raw.request as unknown as (method: string, path: string, init: object) => Promise<Answer>;

  const send = async (
    id: OperationId | OperationRow,
    init: CallInit,
    options: CallOptions | undefined,
    stream: boolean,
  ): Promise<Answer> => {
    const call = resolveCallOptions(ctx.client, options);
    const { method, path, public: open } = typeof id === 'string' ? operation(id) : id;
    const { search, ...rest } = init;
    let data: unknown;
    const fetch = callFetch(
      ctx,
      call,
      stream
        ? { kind: 'stream', throwOnError: true, okCap: options?.maxResponseBytes ?? Infinity }
        : { kind: 'json', throwOnError: true, parsed: (parsed) => (data = parsed) },
    );
    // The answer was read and parsed within the attempt: openapi-fetch hands it on unread.
    const { response } = await request(method, path, {
      ...(open ? withoutToken(rest) : rest),
      ...(search === undefined ? {} : { querySerializer: () => search.slice(1) }),
      parseAs: 'stream',
      fetch,
    });
    return { data, response };
  };

  const caller = (async (id: OperationId | OperationRow, init: CallInit, options: CallOptions | undefined) =>
    (await send(id, init, options, false)).data) as Caller;
  caller.stream = async (id, init, options) => (await send(id, init, options, true)).response;
  return caller;
}
