// How the explorer addresses the spec's operations: path values by what each parameter identifies
// (the target's ids, or ids no tenant has), a link's runtime expressions, a request sent through the
// target's client without its path types, and the tokens a case sends in place of the target's.
import { randomBytes } from 'node:crypto';
import type { SpecLink, SpecOperation } from '@forms-api/spec/operations';
import type { OperationId } from '@forms-api/types';
import type { CheckContext, TokenChoice } from '../check-context.js';
import { SkipCheck, type Exchange } from '../model.js';
import type { Target } from '../targets/target.js';

/** Ids no tenant has (as the 404 checks use), and a token no tenant issued. */
const UNKNOWN_ID = 987654321;
export const WRONG_TOKEN = '1|explorerWrongToken0000000000000000000000000';

export type Query = Record<string, unknown>;
export type Who = 'none' | 'wrong' | 'forged' | 'lacking' | 'foreign';
/** Values for path parameters, by what they identify (`x-identifies`: form, workspace, submission, …). */
export type Ids = Readonly<Record<string, unknown>>;

export const pathParameters = (op: SpecOperation) => op.parameters.filter((p) => p.in === 'path');
export const identifies = (op: SpecOperation, what: string) => pathParameters(op).some((p) => p.identifies === what);
export const isWrite = (op: SpecOperation) => op.method !== 'GET' && op.method !== 'HEAD';
export const isJson = (mediaType: string | undefined) => mediaType !== undefined && /json/.test(mediaType);

/** Path values for `op` from what each parameter identifies; undefined when one is missing. */
export function pathOf(op: SpecOperation, ids: Ids): Record<string, unknown> | undefined {
  const path: Record<string, unknown> = {};
  for (const p of pathParameters(op)) {
    const value = p.identifies === undefined ? undefined : ids[p.identifies];
    if (value === undefined) return undefined;
    path[p.name] = value;
  }
  return path;
}

/** What a target names, by what it identifies. */
export const targetIds = (target: Target): Ids => ({
  workspace: target.ids.workspaceId,
  form: target.ids.formId,
  submission: target.ids.submissionId,
  integration: target.ids.integrationId,
});
/** What `targetIds` may hold: an operation whose path needs anything else (a signed file) is not the explorer's. */
const TARGET_NAMES = new Set(['workspace', 'form', 'submission', 'integration']);
export const UNKNOWN_IDS: Ids = Object.fromEntries([...TARGET_NAMES].map((what) => [what, UNKNOWN_ID]));
export const fillable = (op: SpecOperation) =>
  pathParameters(op).every((p) => p.identifies !== undefined && TARGET_NAMES.has(p.identifies));
export const missingIds = (op: SpecOperation, ids: Ids) =>
  pathParameters(op)
    .filter((p) => p.identifies === undefined || ids[p.identifies] === undefined)
    .map((p) => p.identifies ?? p.name)
    .join(', ')
    .replace(/^/, "the target's ")
    .concat(' id');

/** Evaluates a link's runtime expressions: `$request.path.<name>` and `$response.body#/<pointer>`. */
export function linkParameters(
  link: SpecLink,
  requestPath: Record<string, unknown>,
  responseBody: unknown,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(link.parameters).map(([name, expression]) => {
      if (expression.startsWith('$request.path.'))
        return [name, requestPath[expression.slice('$request.path.'.length)]];
      if (expression.startsWith('$response.body#')) {
        const pointer = expression
          .slice('$response.body#'.length)
          .split('/')
          .slice(1)
          .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
        return [name, pointer.reduce<any>((node, key) => node?.[key], responseBody)];
      }
      throw new Error(`link ${link.name}: runtime expression ${expression} is not one the explorer evaluates`);
    }),
  );
}

type UntypedCall = (
  path: string,
  options: { params: { path: Record<string, unknown>; query?: Record<string, unknown> }; body?: unknown },
) => Promise<unknown>;

/**
 * Sends an operation of the spec with path values, query and body chosen at run time (so through
 * the target's client without its path types), with the main token or `token`. A body goes only
 * to an operation that takes one.
 */
export function request(
  ctx: CheckContext,
  op: SpecOperation,
  r: { path: Record<string, unknown>; query?: Query; body?: unknown; token?: TokenChoice },
): Promise<Exchange> {
  const client = ctx.client(r.token) as unknown as Record<string, UntypedCall>;
  const call = client[op.method];
  if (!call) throw new Error(`the client has no ${op.method} (${op.operationId})`);
  const options = {
    params: { path: r.path, ...(r.query ? { query: r.query } : {}) },
    ...(op.jsonBody && r.body !== undefined ? { body: r.body } : {}),
  };
  return ctx.send(() => call.call(client, op.path, options));
}

export const describeWho = (who: Who) =>
  who === 'none'
    ? 'with no token'
    : who === 'wrong'
      ? 'with a wrong token'
      : who === 'forged'
        ? "with a forged token (the target's token id, another secret)"
        : who === 'lacking'
          ? 'with a token lacking the ability'
          : "on another workspace's form";

/**
 * The target's token id with another secret (`id|secret`, as Sanctum issues them), registered for
 * redaction like the real one; false when the token has no id (the case is then moot). A new
 * secret of the same length, not an edit of the real one, so nothing of the real secret is sent.
 */
export function forgedToken(ctx: CheckContext): string | false {
  const real = ctx.target.tokens.token;
  const bar = real?.indexOf('|') ?? -1;
  if (!real || bar <= 0) return false;
  const length = Math.max(real.length - bar - 1, 8);
  const forged = `${real.slice(0, bar)}|${randomBytes(length).toString('base64url').slice(0, length)}`;
  ctx.extraSecrets.set(forged, '$FORMS_API_FORGED_TOKEN');
  return forged;
}

/** A token of the target without the operation's ability, or false when it holds none (the case is then moot). */
export function lackingToken(ctx: CheckContext, operationId: string): string | false {
  try {
    return ctx.tokensWithoutAbilityFor(operationId as OperationId)[0] ?? false;
  } catch (error) {
    if (error instanceof SkipCheck) return false;
    throw error;
  }
}
