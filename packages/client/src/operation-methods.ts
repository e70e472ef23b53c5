// `client.operations`: one typed method per operation of the spec, made at run time from the
// operations table (no code per operation), each checking its `{ path, query, body }` before
// sending it through the helpers' one Caller.
import type { OperationId, operations } from '@forms-api/types';
import { describeValue } from '@forms-api/internal/option-names';
import { id, known, objectArgument, oneObject, pathSegment } from './arguments.js';
import type { CallInit, Caller, SuccessBody } from './call.js';
import { invalidOption } from './errors.js';
import type { CallOptions } from './options.js';
import type { OperationRow } from './operations.js';

type Params<Id extends OperationId> = operations[Id]['parameters'];
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Flat<T> = { [K in keyof T]: T[K] };

/** `path`: required, with every path parameter, when the operation has some; otherwise not taken. */
type PathPart<P> = P extends { path: infer V } ? { path: V } : { path?: never };
/** `query`: required when a query parameter is, optional when none is, not taken when there are none. */
type QueryPart<P> = P extends { query: infer V }
  ? { query: V }
  : [NonNullable<P extends { query?: infer V } ? V : never>] extends [never]
    ? { query?: never }
    : { query?: NonNullable<P extends { query?: infer V } ? V : never> };
/** `body`: the JSON request body, required when the spec requires it; not taken when there is none. */
type BodyPart<O> = O extends { requestBody: infer R }
  ? { body: JsonBody<R> }
  : O extends { requestBody?: infer R }
    ? [JsonBody<NonNullable<R>>] extends [never]
      ? { body?: never }
      : { body?: JsonBody<NonNullable<R>> }
    : { body?: never };

/** The request of an operation's method, typed from the spec: `{ path, query, body }` as it takes them. */
export type OperationRequest<Id extends OperationId> = Flat<
  PathPart<Params<Id>> & QueryPart<Params<Id>> & BodyPart<operations[Id]>
>;

type Ok<Id extends OperationId> = operations[Id]['responses'] extends { 200: infer R } ? R : never;
/**
 * What an operation's method returns: the 200 JSON body when application/json is its one media
 * type, undefined when it has no content, and otherwise the Response unread (a file, or an answer
 * that may be JSON or something else: its content type says which), as the table's `success` says.
 */
export type OperationResult<Id extends OperationId> =
  Ok<Id> extends { content: infer C }
    ? [Exclude<keyof C, 'application/json'>] extends [never]
      ? SuccessBody<Id>
      : Response
    : undefined;

/** An operation's method; `request` may be left out when nothing in it is required. */
export type OperationMethod<Id extends OperationId> =
  Partial<OperationRequest<Id>> extends OperationRequest<Id>
    ? (request?: OperationRequest<Id>, options?: CallOptions) => Promise<OperationResult<Id>>
    : (request: OperationRequest<Id>, options?: CallOptions) => Promise<OperationResult<Id>>;

/** Every operation of the spec, by operationId. */
export type OperationMethods = { readonly [Id in OperationId]: OperationMethod<Id> };

type Method = (request?: unknown, options?: CallOptions) => Promise<unknown>;

/** One method per row of `table` (the client passes OPERATIONS), each sent through `call`. */
export function operationMethods(call: Caller, table: Readonly<Record<string, OperationRow>>): OperationMethods {
  const methods: Record<string, Method> = {};
  for (const [name, spec] of Object.entries(table)) methods[name] = operationMethod(call, spec);
  return Object.freeze(methods) as unknown as OperationMethods;
}

function operationMethod(call: Caller, spec: OperationRow): Method {
  const where = `operations.${spec.operationId}`;
  const params = [...spec.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const keys = [params.length > 0 && 'path', spec.query.length > 0 && 'query', spec.body !== 'none' && 'body'].filter(
    (key): key is string => typeof key === 'string',
  );
  // Async, so a refused request is a rejection like every other failure of the call.
  return async (request = {}, options) => {
    const init = requestInit(spec, where, params, keys, request);
    return spec.success === 'file' ? call.stream(spec, init, options) : call(spec, init, options);
  };
}

/** The call's init from a request, refused (nothing sent) when it does not fit the operation. */
function requestInit(
  spec: OperationRow,
  where: string,
  params: readonly string[],
  keys: readonly string[],
  request: unknown,
): CallInit {
  const parts = oneObject(request, where, 'request', keys) as { path?: object; query?: object; body?: unknown };
  const { path = {}, query, body } = parts;
  known(objectArgument(path, 'path'), params, `${where}'s path`);
  const values: Record<string, string | number> = {};
  for (const name of params) values[name] = pathValue((path as Record<string, unknown>)[name], `path.${name}`, where);
  if (query !== undefined) known(objectArgument(query, 'query'), spec.query, `${where}'s query`);
  if (body === undefined && spec.body === 'required')
    throw invalidOption('body', `is required by ${where} (its JSON request body); nothing was sent.`);
  if (body !== undefined && (typeof body !== 'object' || body === null))
    throw invalidOption('body', `must be the JSON object or array ${where} takes (got ${describeValue(body)}).`);
  return {
    params: { path: values, ...(query === undefined ? {} : { query: query as Record<string, unknown> }) },
    ...(body === undefined ? {} : { body }),
  };
}

/** A path parameter: a positive integer id, or one non-empty segment of text (a slug, a file name). */
function pathValue(value: unknown, name: string, where: string): string | number {
  if (value === undefined) throw invalidOption(name, `is required by ${where}; nothing was sent.`);
  if (typeof value === 'number') return id(value, name);
  if (typeof value === 'string' && value !== '') return pathSegment(value, name);
  throw invalidOption(name, `must be a positive integer id or a non-empty text (got ${describeValue(value)}).`);
}
