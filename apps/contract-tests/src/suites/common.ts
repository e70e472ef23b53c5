// Check builders shared by the operation suites: every documented status on the mock, and on live
// targets the happy path, no token (401), a token without the ability (403) and unknown ids (404).
import type { CheckContext, TokenChoice } from '../check-context.js';
import { isSecured } from '../spec.js';
import type { Exchange } from '../model.js';
import type { TargetTokens } from '../targets/target.js';
import type { Check } from './types.js';

/** Variations of an operation's valid request; the operation suite knows how to send it. */
export interface SendOptions {
  readonly token?: TokenChoice;
  readonly headers?: Record<string, string>;
  readonly query?: Record<string, unknown>;
  readonly body?: unknown;
  /** Path parameter overrides (unknown ids for the 404 checks). */
  readonly path?: Record<string, string | number>;
}

export type Send = (ctx: CheckContext, options?: SendOptions) => Promise<Exchange>;

/** An id no tenant has: large, positive and within the schema's int64 bounds. */
export const UNKNOWN_ID = 987654321;

/** The id of an integration, or a skip naming the variable. */
export function integrationIdOf(ctx: CheckContext): number {
  const id = ctx.target.ids.integrationId;
  if (id === undefined) return ctx.skip('no integration to read (set FORMS_API_INTEGRATION_ID)');
  return id;
}

/**
 * On the Prism mock: one check per documented status, selected with `Prefer: code=<status>`, each
 * response validated against the schema of that status. Statuses Prism answers by itself are
 * tested separately (see prismOwnBehaviour).
 */
export function documentedStatusChecks(operationId: string, statuses: string[], send: Send): Check[] {
  return statuses.map((status) => ({
    name: `documented ${status} (Prefer: code=${status})`,
    operationId,
    on: 'mock' as const,
    async run(ctx: CheckContext) {
      const exchange = await send(ctx, { headers: { Prefer: `code=${status}` } });
      ctx.expectResponse(exchange, { operationId, status: Number(status) });
    },
  }));
}

/**
 * Prism 5.14.2's own behaviour, which a client user meets first: a secured operation without
 * `Authorization` gets 401 (with an `sl-violations` header and the 401 example body), and a public
 * one does not.
 */
export function prismOwnBehaviour(operationId: string, send: Send): Check[] {
  return [
    {
      name: 'no token: Prism enforces the security requirement',
      operationId,
      on: 'mock',
      async run(ctx) {
        const exchange = await send(ctx, { token: null });
        const secured = isSecured(ctx.spec, operationId);
        ctx.expectResponse(exchange, { operationId, status: secured ? 401 : 200 });
        if (secured && !exchange.responseHeaders?.['sl-violations']) {
          ctx.fail({ kind: 'check', operationId, message: 'Prism did not explain its 401 in sl-violations', expected: 'an sl-violations header', received: 'none', exchange });
        }
      },
    },
  ];
}

export interface LiveBasics {
  readonly operationId: string;
  readonly send: Send;
  /** The token key lacking this operation's ability, and the variable a live user sets it with. */
  readonly forbidden?: { token: keyof TargetTokens; variable: string };
  /** Path parameters that make the request address nothing (404). */
  readonly unknown?: Record<string, string | number>;
  /** The happy path changes data: only with --write (and it then needs its own check instead). */
  readonly readOnly?: boolean;
  /** Extra preconditions (ids) checked before sending; throw a skip. */
  readonly needs?: (ctx: CheckContext) => void;
}

export function liveBasicChecks(b: LiveBasics): Check[] {
  const checks: Check[] = [];
  const { operationId, send } = b;
  if (b.readOnly !== false) {
    checks.push({
      name: 'happy path: 200 and a valid body',
      operationId,
      on: 'live',
      async run(ctx) {
        b.needs?.(ctx);
        ctx.expectResponse(await send(ctx), { operationId, status: 200 });
      },
    });
  }
  checks.push({
    name: 'no token: 401',
    operationId,
    on: 'live',
    async run(ctx) {
      b.needs?.(ctx);
      ctx.expectResponse(await send(ctx, { token: null }), { operationId, status: 401 });
    },
  });
  if (b.forbidden) {
    const { token, variable } = b.forbidden;
    checks.push({
      name: `token without the ability: 403`,
      operationId,
      on: 'live',
      async run(ctx) {
        b.needs?.(ctx);
        ctx.expectResponse(await send(ctx, { token: ctx.token(token, variable) }), { operationId, status: 403 });
      },
    });
  }
  if (b.unknown) {
    const path = b.unknown;
    checks.push({
      name: `unknown id: 404`,
      operationId,
      on: 'live',
      async run(ctx) {
        b.needs?.(ctx);
        ctx.expectResponse(await send(ctx, { path }), { operationId, status: 404 });
      },
    });
  }
  return checks;
}
