// One call through openapi-fetch, helper or raw: it gets its own transport (its options, its
// attempt count), and every failure after the request was sent becomes a FormsApiError. Helpers
// name their operation by operationId; method and path come from the spec's table.
import type { Client } from 'openapi-fetch';
import type { OperationId, operations, paths } from '@forms-api/types';
import { FormsApiError } from './errors.js';
import { failure, type FailureScope } from './failures.js';
import { operation } from './operations.js';
import { resolveCallOptions, type CallOptions, type ResolvedCall, type ResolvedOptions } from './options.js';
import { createTransport, newCallState, type CallState, type Transport } from './transport.js';

export interface CallInit {
  params?: { path?: Record<string, string | number>; query?: Record<string, unknown> };
  body?: unknown;
}

/** The JSON body of an operation's 200 answer, as the spec types it. */
export type SuccessBody<Id extends OperationId> = operations[Id]['responses'] extends { 200: { content: { 'application/json': infer B } } }
  ? B
  : never;

export type Caller = <Id extends OperationId>(id: Id, init: CallInit, options: CallOptions | undefined) => Promise<SuccessBody<Id>>;

/** What every call of one client shares. */
export interface CallContext {
  readonly client: ResolvedOptions;
  readonly scope: FailureScope;
}

/**
 * Runs `send` with a transport of its own and turns a failure after the request went out (the
 * body read timed out or broke, a 2xx that is not JSON) into a FormsApiError.
 */
export async function runCall<R>(
  ctx: CallContext,
  call: ResolvedCall,
  send: (fetch: Transport, state: CallState) => Promise<R>,
): Promise<R> {
  const state = newCallState();
  try {
    return await send(createTransport(ctx.client, call, ctx.scope, state), state);
  } catch (error) {
    throw afterSend(error, ctx, call, state);
  }
}

function afterSend(error: unknown, ctx: CallContext, call: ResolvedCall, state: CallState): unknown {
  // Already explained, or raised before anything was sent (openapi-fetch's own argument checks).
  if (error instanceof FormsApiError || !state.sent) return error;
  const sent = { ...state.sent, attempts: state.attempts };
  const name = error instanceof Error ? error.name : '';
  if (call.signal?.aborted) return failure(ctx.scope, sent, { kind: 'aborted' });
  if (name === 'TimeoutError') return failure(ctx.scope, sent, { kind: 'timeout', timeoutMs: call.timeoutMs, phase: 'body' });
  if (name === 'SyntaxError') return failure(ctx.scope, sent, { kind: 'not_json' });
  return failure(ctx.scope, sent, { kind: 'network', cause: error, phase: 'body' });
}

export function createCaller(raw: Client<paths>, ctx: CallContext): Caller {
  // openapi-fetch's request() is typed per path; the helpers that call this are typed instead.
  const request = raw.request as unknown as (
    method: string,
    path: string,
    init: CallInit & { fetch: Transport },
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

  return async <Id extends OperationId>(id: Id, init: CallInit, options: CallOptions | undefined) => {
    const { method, path } = operation(id);
    const call = resolveCallOptions(ctx.client, options);
    return runCall(ctx, call, async (fetch, state) => {
      const { data, error, response } = await request(method, path, { ...init, fetch });
      if (!response.ok) {
        const sent = { method, url: state.sent?.url ?? response.url, attempts: state.attempts };
        throw failure(ctx.scope, sent, { kind: 'status', response, body: error });
      }
      return data as SuccessBody<Id>;
    });
  };
}
