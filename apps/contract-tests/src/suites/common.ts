// Check builders shared by the operation suites: every documented status on the mock, and on live
// targets the happy path, no token (401), a token without the ability (403) and unknown ids (404).
// Statuses, abilities and whether an operation is public come from the spec's operations table.
import { OPERATIONS, type OperationId, type operations } from '@forms-api/types';
import type { CheckContext, TokenChoice } from '../check-context.js';
import type { Exchange } from '../model.js';
import type { Check } from './types.js';

type ParametersOf<Op extends OperationId> = operations[Op]['parameters'];
type JsonBodyOf<Op extends OperationId> =
  NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer Body } } ? Body : never;

/** Variations of an operation's valid request, typed by the spec; the operation suite knows how to send it. */
export interface SendOptions<Op extends OperationId> {
  readonly token?: TokenChoice;
  readonly headers?: Record<string, string>;
  /** Path parameter overrides (unknown ids for the 404 checks, an id the check created). */
  readonly path?: Partial<NonNullable<ParametersOf<Op>['path']>>;
  readonly query?: NonNullable<ParametersOf<Op>['query']>;
  readonly body?: JsonBodyOf<Op>;
}

export type Send<Op extends OperationId> = (ctx: CheckContext, options?: SendOptions<Op>) => Promise<Exchange>;

/**
 * A value the spec forbids, sent on purpose to see it refused (422). Typed as what the client expects
 * so the rest of the request stays checked.
 */
export const deliberatelyInvalid = <T>(value: unknown): T => value as T;

/** A query the tenant wrote (the query string of a pagination link), followed exactly as given. */
export const queryOfLink = <T>(link: URL): T => Object.fromEntries(link.searchParams) as T;

/** An id no tenant has: large, positive and within the schema's int64 bounds. */
export const UNKNOWN_ID = 987654321;

/**
 * On the Prism mock: one check per status the spec documents for the operation, selected with
 * `Prefer: code=<status>`, each response validated against the schema of that status. Statuses
 * Prism answers by itself are tested separately (see prismOwnBehaviour).
 */
export function documentedStatusChecks<Op extends OperationId>(operationId: Op, send: Send<Op>): Check[] {
  return OPERATIONS[operationId].statuses.map((status) => ({
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
export function prismOwnBehaviour<Op extends OperationId>(operationId: Op, send: Send<Op>): Check[] {
  return [
    {
      name: 'no token: Prism enforces the security requirement',
      operationId,
      on: 'mock',
      async run(ctx) {
        const exchange = await send(ctx, { token: null });
        const secured = !OPERATIONS[operationId].public;
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
export type BasicRequest<Op extends OperationId> =
  SendOptions<Op> | ((ctx: CheckContext) => SendOptions<Op> | Promise<SendOptions<Op>>);

export interface BasicCase<Op extends OperationId> {
  /** The request (default: the operation's default request). */
  readonly request?: BasicRequest<Op>;
  /** Needs --write on live tenants: the request changes data, or addresses something the check creates. */
  readonly writes?: boolean;
  /** The name in the report, when the standard one would be vague ("unknown submission: 404"). */
  readonly name?: string;
}

export interface LiveBasics<Op extends OperationId> {
  readonly operationId: Op;
  readonly send: Send<Op>;
  /** 200 and a valid body. On by default. */
  readonly happyPath?: BasicCase<Op> | false;
  /** 401 without a token. On by default for secured operations. */
  readonly noToken?: BasicCase<Op> | false;
  /** 403 with a token that has none of the abilities the operation accepts. On by default for secured operations. */
  readonly withoutAbility?: BasicCase<Op> | false;
  /** 404: the request must address nothing, so it has no default. */
  readonly unknown?: BasicCase<Op> & { readonly request: BasicRequest<Op> };
  /** Sees each exchange before it is judged (for example to remove what a request wrongly created). */
  readonly inspect?: (ctx: CheckContext, exchange: Exchange) => void;
}

const prepare = async <Op extends OperationId>(
  ctx: CheckContext,
  request: BasicRequest<Op> | undefined,
): Promise<SendOptions<Op>> => (typeof request === 'function' ? request(ctx) : (request ?? {}));

/** The happy path, 401, 403 and 404 of an operation on live targets, each a check of its own. */
export function liveBasicChecks<Op extends OperationId>(b: LiveBasics<Op>): Check[] {
  const { operationId, send } = b;
  const secured = !OPERATIONS[operationId].public;
  /** One check of `status`: the request once per token `tokens` gives (one, or every token lacking the ability). */
  const check = (
    standardName: string,
    basic: BasicCase<Op>,
    status: number,
    tokens: (ctx: CheckContext) => TokenChoice[],
  ): Check => ({
    name: basic.name ?? standardName,
    operationId,
    on: 'live',
    ...(basic.writes ? { writes: true } : {}),
    async run(ctx) {
      // The tokens first: a check that lacks them is skipped before it creates anything.
      const chosen = tokens(ctx);
      const options = await prepare(ctx, basic.request);
      for (const token of chosen) {
        const exchange = await send(ctx, { ...options, ...(token === undefined ? {} : { token }) });
        b.inspect?.(ctx, exchange);
        ctx.expectResponse(exchange, { operationId, status });
      }
    },
  });
  const checks: Check[] = [];
  if (b.happyPath !== false)
    checks.push(check('happy path: 200 and a valid body', b.happyPath ?? {}, 200, () => [undefined]));
  if (secured && b.noToken !== false) checks.push(check('no token: 401', b.noToken ?? {}, 401, () => [null]));
  if (secured && b.withoutAbility !== false)
    checks.push(
      check('token without the ability: 403', b.withoutAbility ?? {}, 403, (ctx) =>
        ctx.tokensWithoutAbilityFor(operationId),
      ),
    );
  if (b.unknown) checks.push(check('unknown id: 404', b.unknown, 404, () => [undefined]));
  return checks;
}
