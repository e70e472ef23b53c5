// One call, helper or raw: it gets a sender of its own (its options, its attempt count), and
// every failure after the request went out becomes a FormsApiError. Helpers name their operation
// by operationId (method and path come from the spec's table) and are sent directly, or through
// openapi-fetch when middleware is registered, so that middleware sees every call.
import type { Client } from 'openapi-fetch';
import type { OperationId, operations, paths } from '@forms-api/types';
import { withoutTokenIfPublic } from './auth.js';
import { readAnswer, type DirectParams, type DirectRequests } from './direct.js';
import { FormsApiError } from './errors.js';
import { failure } from './failures.js';
import { operation } from './operations.js';
import { resolveCallOptions, type CallOptions, type ResolvedCall } from './options.js';
import { asTransport, createSender, newCallState, settle, type CallState, type Sender, type TransportContext } from './transport.js';

export interface CallInit {
  params?: DirectParams;
  body?: unknown;
  /** An exact query string (`?a=1&b=2`) to send instead of `params.query`, e.g. a signed URL's. */
  search?: string;
}

/** The JSON body of an operation's 200 answer, as the spec types it. */
export type SuccessBody<Id extends OperationId> = operations[Id]['responses'] extends { 200: { content: { 'application/json': infer B } } }
  ? B
  : never;

export interface Caller {
  /** Sends the operation and returns its parsed 2xx body; throws FormsApiError otherwise. */
  <Id extends OperationId>(id: Id, init: CallInit, options: CallOptions | undefined): Promise<SuccessBody<Id>>;
  /**
   * Sends the operation and returns the 2xx Response with its body unread (a download), capped
   * at the call's own `maxResponseBytes` only: the client does not read it. Error bodies are read
   * and capped as usual.
   */
  stream(id: OperationId, init: CallInit, options: CallOptions | undefined): Promise<Response>;
}

/** What every call of one client shares. */
export interface CallContext extends TransportContext {
  readonly direct: DirectRequests;
  /** Whether middleware is registered with `use()`. */
  readonly hasMiddleware: () => boolean;
}

/**
 * Runs `send` with a sender of its own and turns a failure after the request went out (the body
 * read timed out or broke, a 2xx that is not JSON) into a FormsApiError.
 */
export async function runCall<R>(ctx: TransportContext, call: ResolvedCall, send: (sender: Sender, state: CallState) => Promise<R>): Promise<R> {
  const state = newCallState();
  try {
    return await send(createSender(ctx, call, state), state);
  } catch (error) {
    throw afterSend(error, ctx, call, state);
  } finally {
    settle(state);
  }
}

function afterSend(error: unknown, ctx: TransportContext, call: ResolvedCall, state: CallState): unknown {
  // Already explained, raised before anything was sent (openapi-fetch's own argument checks), or
  // thrown by the caller's own onRetry.
  if (error instanceof FormsApiError || !state.sent || error === state.foreign) return error;
  const sent = { ...state.sent, attempts: state.attempts };
  if (call.signal?.aborted) return failure(ctx.scope, sent, { kind: 'aborted' });
  if (state.timedOut) return failure(ctx.scope, sent, { kind: 'timeout', timeoutMs: call.timeoutMs, phase: 'body' });
  if (error instanceof Error && error.name === 'SyntaxError') return failure(ctx.scope, sent, { kind: 'not_json' });
  return failure(ctx.scope, sent, { kind: 'network', cause: error, phase: 'body' });
}

type Answer = { data?: unknown; error?: unknown; response: Response };

export function createCaller(raw: Client<paths>, ctx: CallContext): Caller {
  // openapi-fetch's request() is typed per path; the helpers that call this are typed instead.
  const request = raw.request as unknown as (method: string, path: string, init: object) => Promise<Answer>;

  /** Sends the operation, and reads the answer unless it is a stream (then `streamCap` caps it). */
  const send = (id: OperationId, init: CallInit, call: ResolvedCall, streamCap?: number): Promise<Answer> => {
    const stream = streamCap !== undefined;
    const { method, path } = operation(id);
    return runCall(ctx, call, async (sender, state) => {
      let answer: Answer;
      if (ctx.hasMiddleware()) {
        const { search, ...rest } = init;
        answer = await request(method, path, {
          ...withoutTokenIfPublic(path, rest),
          ...(search === undefined ? {} : { querySerializer: () => search.slice(1) }),
          ...(stream ? { parseAs: 'stream' } : {}),
          fetch: asTransport(sender, streamCap),
        });
      } else {
        const outgoing = ctx.direct.build(method, path, init.params, init.body, init.search);
        // A stream handed to the caller gets its cap from the sender; an answer read here is counted here.
        const response = await sender(stream ? { ...outgoing, readByCaller: false, okCap: streamCap } : outgoing);
        if (stream && response.ok) answer = { response };
        else {
          const sent = { method, url: outgoing.url, attempts: state.attempts };
          const tooLarge = () => failure(ctx.scope, sent, { kind: 'too_large', limit: call.maxResponseBytes, response });
          answer = { ...(await readAnswer(response, call.maxResponseBytes, tooLarge)), response };
        }
      }
      const { response } = answer;
      if (!response.ok) {
        const sent = { method, url: state.sent?.url ?? response.url, attempts: state.attempts };
        throw failure(ctx.scope, sent, { kind: 'status', response, body: answer.error, pacing: state.pacedOut });
      }
      return answer;
    });
  };

  const caller = (async (id: OperationId, init: CallInit, options: CallOptions | undefined) => {
    const answer = await send(id, init, resolveCallOptions(ctx.client, options));
    return answer.data;
  }) as Caller;
  caller.stream = async (id, init, options) =>
    (await send(id, init, resolveCallOptions(ctx.client, options), options?.maxResponseBytes ?? Infinity)).response;
  return caller;
}
