// What every operation's checks are built from: a sender that fills any operation of the spec from
// the target's ids, and the check builders (every documented status on the mock, Prism's own 401,
// and on live targets the happy path, no token, a token without the ability and an unknown id).
import type { OperationId, operations } from '@forms-api/types';
import type { CheckContext, TokenChoice } from '../check-context.js';
import { CheckFailed, type Exchange } from '../model.js';
import { requestExample, takesIdOrSlug, takesString, type SpecOperation, type SpecParameter } from '../operations.js';
import type { Check } from './types.js';

/** Parameters of an operation the generated types do not know yet (one just added to the spec). */
interface AnyParameters {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
}
type ParametersOf<Op extends string> = Op extends OperationId ? operations[Op]['parameters'] : AnyParameters;
type JsonBodyOf<Op extends string> = Op extends OperationId
  ? NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer Body } }
    ? Body
    : never
  : unknown;

/** Variations of an operation's valid request, typed by the spec where the generated types know it. */
export interface SendOptions<Op extends string = string> {
  readonly token?: TokenChoice;
  readonly headers?: Record<string, string>;
  /** Path parameter overrides (unknown ids for the 404 checks, an id the check created). */
  readonly path?: Partial<NonNullable<ParametersOf<Op>['path']>>;
  readonly query?: NonNullable<ParametersOf<Op>['query']>;
  readonly body?: JsonBodyOf<Op>;
}

export type Send<Op extends string = string> = (ctx: CheckContext, options?: SendOptions<Op>) => Promise<Exchange>;

/**
 * A value the spec forbids, sent on purpose to see it refused (422). Typed as what the client expects
 * so the rest of the request stays checked.
 */
export const deliberatelyInvalid = <T>(value: unknown): T => value as T;

/** A query the tenant wrote (the query string of a pagination link), followed exactly as given. */
export const queryOfLink = <T>(link: URL): T => Object.fromEntries(link.searchParams) as T;

/** An id no tenant has: large, positive and within the schema's int64 bounds. */
export const UNKNOWN_ID = 987654321;

/** The target's id of what a path parameter identifies (`form` -> `formId`), if it has one. */
export const targetIdOf = (ctx: CheckContext, identifies: string): number | undefined => {
  const id = (ctx.target.ids as unknown as Record<string, unknown>)[`${identifies}Id`];
  return typeof id === 'number' ? id : undefined;
};

/**
 * A body with its properties that name a resource of the tenant (`x-identifies`, such as a form's
 * `workspace_id`) set to the target's ids, as the path is: the spec's example names the seed's.
 */
export function withTargetIds<T>(ctx: CheckContext, op: SpecOperation, body: T): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const ids = Object.fromEntries(
    (op.jsonBody?.identifying ?? []).flatMap(({ name, identifies }) => {
      const id = targetIdOf(ctx, identifies);
      return id === undefined ? [] : [[name, id]];
    }),
  );
  return { ...body, ...ids };
}

/**
 * The path of an operation as the target fills it: each parameter by what it identifies (an id
 * the target lacks: UNKNOWN_ID, which is enough for the mock and for requests that must be refused
 * anyway). On the mock an id-or-slug parameter gets the slug: Prism 5.14.2 coerces a numeric id,
 * which then matches both branches of the `oneOf` and gets a 422.
 */
export function targetPath(ctx: CheckContext, op: SpecOperation): Record<string, string | number> {
  const path: Record<string, string | number> = {};
  for (const p of op.parameters) {
    if (p.in !== 'path' || p.identifies === undefined) continue;
    const slug = (ctx.target.ids as unknown as Record<string, unknown>)[`${p.identifies}Slug`];
    path[p.name] =
      ctx.target.kind === 'mock' && takesIdOrSlug(p) && typeof slug === 'string'
        ? slug
        : (targetIdOf(ctx, p.identifies) ?? UNKNOWN_ID);
  }
  return path;
}

type AnyRequest = (method: string, path: string, init: Record<string, unknown>) => Promise<unknown>;

/**
 * The sender of any operation of the spec: method and path from the spec, the path filled from the
 * target (see targetPath), the body the operation's own default or else the spec's example. A public
 * operation is sent without a token unless a check asks for one.
 */
export function operationSender<Op extends string>(
  operationId: Op,
  defaults: { readonly body?: (ctx: CheckContext) => JsonBodyOf<Op> } = {},
): Send<Op> {
  return (ctx, o = {}) => {
    const op = ctx.operation(operationId);
    const body =
      o.body ??
      withTargetIds(ctx, op, defaults.body?.(ctx) ?? (op.jsonBody ? requestExample(ctx.spec.bundle, op) : undefined));
    const file = op.successMediaTypes[0] !== undefined && op.successMediaTypes[0] !== 'application/json';
    // A file is asked for as any type: the client's `Accept: application/json` earns a 406 from a
    // tenant that negotiates (Prism).
    const headers = file ? { accept: '*/*', ...o.headers } : o.headers;
    const client = ctx.client(op.public && o.token === undefined ? null : o.token, headers);
    return ctx.send(() =>
      (client.request as unknown as AnyRequest)(op.method.toLowerCase(), op.path, {
        params: { path: { ...targetPath(ctx, op), ...o.path }, ...(o.query ? { query: o.query } : {}) },
        ...(body !== undefined ? { body } : {}),
        // Another media type than JSON (a file) is read as bytes; the suite judges the recorded exchange.
        ...(file ? { parseAs: 'blob' } : {}),
      }),
    );
  };
}

/**
 * On the Prism mock: one check per status the spec documents for the operation, selected with
 * `Prefer: code=<status>`, each response validated against the schema of that status. Statuses
 * Prism answers by itself are tested separately (see prismOwnBehaviour).
 */
export function documentedStatusChecks(op: SpecOperation, send: Send): Check[] {
  const { operationId } = op;
  return op.statuses.map((status) => ({
    name: `documented ${status} (Prefer: code=${status})`,
    operationId,
    on: 'mock' as const,
    async run(ctx: CheckContext) {
      const exchange = await send(ctx, { headers: { Prefer: `code=${status}` } });
      ctx.expectResponse(exchange, { operationId, status });
    },
  }));
}

/**
 * Prism 5.14.2's own behaviour, which a client user meets first: a secured operation without
 * `Authorization` gets 401 (with an `sl-violations` header and the 401 example body), and a public
 * one does not.
 */
export function prismOwnBehaviour(op: SpecOperation, send: Send): Check[] {
  const { operationId } = op;
  return [
    {
      name: 'no token: Prism enforces the security requirement',
      operationId,
      on: 'mock',
      async run(ctx) {
        const exchange = await send(ctx, { token: null });
        const secured = !op.public;
        ctx.expectResponse(exchange, { operationId, status: secured ? 401 : 200 });
        if (secured && !exchange.responseHeaders?.['sl-violations']) {
          ctx.fail({
            kind: 'behaviour',
            observation: 'prism-401-unexplained',
            operationId,
            message: 'Prism did not explain its 401 in sl-violations',
            expected: 'an sl-violations header',
            received: 'none',
            exchange,
          });
        }
      },
    },
  ];
}

/** The request of a basic check besides its token: fixed, or worked out when the check runs (it may create what it addresses). */
export type BasicRequest<Op extends string = string> =
  SendOptions<Op> | ((ctx: CheckContext) => SendOptions<Op> | Promise<SendOptions<Op>>);

export interface BasicCase<Op extends string = string> {
  /** The request (default: the operation's default request). */
  readonly request?: BasicRequest<Op>;
  /** Needs --write on live tenants: the request changes data, or addresses something the check creates. */
  readonly writes?: boolean;
  /** Needs --destructive on live tenants too (see Check.destructive). */
  readonly destructive?: boolean;
  /** The name in the report, when the standard one would be vague ("unknown submission: 404"). */
  readonly name?: string;
}

/** Sees each exchange, with the request it answered, before it is judged (to remove what a request created). */
export type Inspect<Op extends string = string> = (
  ctx: CheckContext,
  exchange: Exchange,
  request: SendOptions<Op>,
) => void;

export interface LiveBasics {
  readonly op: SpecOperation;
  readonly send: Send;
  /** 200 and a valid body. */
  readonly happyPath?: BasicCase;
  /** 401 without a token (secured operations only). */
  readonly noToken?: BasicCase;
  /** 403 with each token that has none of the abilities the operation accepts (secured operations only). */
  readonly withoutAbility?: BasicCase;
  /** The request must address nothing: answered `status` (404 unless the spec says otherwise). */
  readonly unknown?: BasicCase & { readonly name: string; readonly status?: number };
  readonly inspect?: Inspect;
}

const prepare = async (ctx: CheckContext, request: BasicRequest | undefined): Promise<SendOptions> =>
  typeof request === 'function' ? request(ctx) : (request ?? {});

/** The happy path, 401, 403 and 404 of an operation on live targets, each a check of its own (those given). */
export function liveBasicChecks(b: LiveBasics): Check[] {
  const { op, send } = b;
  const { operationId } = op;
  /** One check of `status`: the request once per token `tokens` gives (one, or every token lacking the ability). */
  const check = (
    standardName: string,
    basic: BasicCase,
    status: number,
    tokens: (ctx: CheckContext) => TokenChoice[],
  ): Check => ({
    name: basic.name ?? standardName,
    operationId,
    on: 'live',
    ...(basic.writes ? { writes: true } : {}),
    ...(basic.destructive ? { destructive: true } : {}),
    async run(ctx) {
      // The tokens first: a check that lacks them is skipped before it creates anything.
      const chosen = tokens(ctx);
      const options = await prepare(ctx, basic.request);
      for (const token of chosen) {
        const exchange = await send(ctx, { ...options, ...(token === undefined ? {} : { token }) });
        b.inspect?.(ctx, exchange, options);
        ctx.expectResponse(exchange, { operationId, status });
      }
    },
  });
  const checks: Check[] = [];
  if (b.happyPath) checks.push(check('happy path: 200 and a valid body', b.happyPath, 200, () => [undefined]));
  if (!op.public && b.noToken) checks.push(check('no token: 401', b.noToken, 401, () => [null]));
  if (!op.public && b.withoutAbility)
    checks.push(
      check('token without the ability: 403', b.withoutAbility, 403, (ctx) => ctx.tokensWithoutAbilityFor(operationId)),
    );
  if (b.unknown) checks.push(check(b.unknown.name, b.unknown, b.unknown.status ?? 404, () => [undefined]));
  return checks;
}

/**
 * What an operation needs beyond what the spec derives, keyed by operationId: a sender of its own
 * (a quirk, a request the spec cannot fill), the basic cases it replaces (`false`: none) or
 * renames, and its own checks, run after the derived ones.
 */
export interface HandSuite<Op extends string = string> {
  readonly operationId: Op;
  readonly send?: Send<Op>;
  readonly happyPath?: BasicCase<Op> | false;
  readonly noToken?: BasicCase<Op> | false;
  readonly withoutAbility?: BasicCase<Op> | false;
  readonly unknown?: BasicCase<Op> | false;
  readonly inspect?: Inspect<Op>;
  readonly checks?: readonly Check[];
}

/** A hand suite, typed by its operation, as the registry holds it. */
export const handSuite = <Op extends string>(suite: HandSuite<Op>): HandSuite => suite as unknown as HandSuite;

/** Stops a check whose preparation failed (what it needed could not be made), with the exchange that failed. */
export const setupFailed = (message: string, exchange?: Exchange): never => {
  throw new CheckFailed([{ kind: 'setup', message, ...(exchange ? { exchange } : {}) }]);
};

/** The value of a parameter that names nothing: an unknown slug or name where it takes a string, else UNKNOWN_ID. */
export const unknownValue = (p: SpecParameter): string | number =>
  takesString(p) ? `no-such-${p.identifies}-contract-test` : UNKNOWN_ID;
