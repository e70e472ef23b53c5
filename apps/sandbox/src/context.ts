// What every route needs: the store, the configured base URL, the spec validator, the service's
// rules, and the checks every operation runs: token (401) → every resource the path names (404) →
// membership and the operation's abilities (403) → input (422), in that order unless the rules
// give an operation another one (runChecks).
import type { Context } from 'hono';
import type { SpecValidator } from '@forms-api/spec/validator';
import type { OperationId } from '@forms-api/types';
import type { Dispatcher } from './dispatch/dispatcher.js';
import type { WebhookUrlPolicy } from './dispatch/webhook-url.js';
import type { FileSigner } from './files.js';
import { FieldErrors, HttpError, forbidden, notFound, unauthenticated, validationFailed } from './http.js';
import { REQUEST_BODY_MAX_DEPTH } from './limits.js';
import type { AccessToken, Form, User } from './model.js';
import type { RuleContext, SchemaError } from './rule-context.js';
import type { PathId, SandboxRules } from './rules.js';
import { addSchemaErrors } from './schema-errors.js';
import type { Storage } from './storage.js';
import type { SandboxStore } from './store/store.js';

/** Everything a route uses; the rules see only its RuleContext part (rule-context.ts). */
export interface SandboxContext extends RuleContext {
  /** The bundled spec (components are looked up in it). */
  bundle: {
    components: { parameters: Record<string, Record<string, any>>; schemas: Record<string, Record<string, any>> };
  };
  store: SandboxStore;
  validator: SpecValidator;
  rules: SandboxRules;
  files: FileSigner;
  storage: Storage;
  dispatcher: Dispatcher;
  webhookUrls: WebhookUrlPolicy;
  /** Where clients reach the sandbox; every URL the sandbox writes starts with it (never with a request's Host). */
  baseUrl: string;
  /** The address a request comes from (the peer, or what trusted proxies say). */
  clientAddress: (c: Context) => string;
  now: () => number;
}

export interface Caller {
  token: AccessToken;
  user: User;
}

export const bearerToken = (c: Context): string | undefined =>
  /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim();

export function caller(ctx: SandboxContext, c: Context): Caller {
  const secret = bearerToken(c);
  const token = secret ? ctx.store.tokens.get(secret) : undefined;
  const user = token ? ctx.store.users.get(token.userId) : undefined;
  if (!token || !user) throw unauthenticated();
  return { token, user };
}

export function roleIn(user: User, workspaceId: number) {
  return user.memberships.find((m) => m.workspaceId === workspaceId)?.role;
}

/**
 * 403 unless the caller's user belongs to the workspace and the token holds one of the operation's
 * abilities (the rules'; the spec's table by default). `editor`: read-only members are refused too;
 * `admin`: every member but an admin is.
 */
export function authorise(
  ctx: SandboxContext,
  who: Caller,
  workspaceId: number,
  operationId: OperationId,
  options: { editor?: boolean; admin?: boolean } = {},
): void {
  const role = roleIn(who.user, workspaceId);
  if (!role || (options.editor && role === 'readonly') || (options.admin && role !== 'admin')) throw forbidden();
  requireAbility(ctx, who, operationId);
}

/** 403 unless the token holds one of the operation's abilities (operations on no workspace check only this). */
export function requireAbility(ctx: SandboxContext, who: Caller, operationId: OperationId): void {
  const abilities: readonly string[] = ctx.rules.abilities(operationId);
  if (!abilities.some((a) => (who.token.abilities as readonly string[]).includes(a))) throw forbidden();
}

/**
 * Runs an operation's named checks (each throws its HttpError) in the order the rules give for it,
 * or else in the order they are listed. A check may await (reading the body).
 */
export async function runChecks(
  ctx: SandboxContext,
  operationId: OperationId,
  checks: Record<string, () => void | Promise<void>>,
): Promise<void> {
  const order = ctx.rules.checkOrder[operationId] ?? Object.keys(checks);
  const listed = Object.keys(checks);
  if (order.length !== listed.length || !listed.every((name) => order.includes(name))) {
    throw new Error(
      `The check order of ${operationId} (${order.join(', ')}) must name each of its checks once: ${listed.join(', ')}.`,
    );
  }
  for (const name of order) await checks[name]!();
}

/**
 * The record id or slug a path segment names as the rules read it; else the 404 of `model` (with
 * `shownId`, as the service shows a cast id) or the service's 500.
 */
export function pathId<T extends PathId>(
  named: T,
  model: string,
  shownId?: number,
): Exclude<T, 'not-found' | 'server-error'> {
  if (named === 'server-error') throw new HttpError(500, { message: 'Server Error' });
  if (named === 'not-found') throw notFound(model, shownId);
  return named as Exclude<T, 'not-found' | 'server-error'>;
}

export function formOr404(ctx: SandboxContext, raw: string, bySlug = false): Form {
  const named = pathId(ctx.rules.ids.form(raw, bySlug), 'Forms\\Form');
  const form = 'id' in named ? ctx.store.forms.get(named.id) : ctx.store.formBySlug(named.slug);
  if (!form) throw notFound('Forms\\Form', 'id' in named ? named.id : undefined);
  return form;
}

/** How deeply arrays and objects nest in a parsed JSON value (a scalar is 0), walked without recursion. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(node))
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * A content type that declares JSON, as the framework reads it (`/json` or `+json` anywhere in it).
 * Only such a body is parsed: a page on another site can POST `text/plain` without asking first,
 * and its text must not become an answer.
 */
const declaresJson = (contentType: string | undefined) => /\/json|\+json/i.test(contentType ?? '');

/**
 * The JSON body as an object, or a 422 saying it is not JSON (by its content type or its text),
 * not an object, or nests too deeply to be read.
 */
export async function jsonBody(c: Context, notAnObject: 'refuse' | 'empty' = 'refuse'): Promise<Record<string, any>> {
  const contentType = c.req.header('content-type');
  if (!declaresJson(contentType)) {
    if (notAnObject === 'empty') return {};
    throw validationFailed(
      'body',
      `The request body must be JSON sent with Content-Type: application/json (got ${contentType ? JSON.stringify(contentType.slice(0, 100)) : 'no Content-Type'}).`,
    );
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    if (notAnObject === 'empty') return {};
    throw validationFailed('body', 'The request body must be a JSON object.');
  }
  const depth = nestingDepth(body);
  if (depth > REQUEST_BODY_MAX_DEPTH)
    throw validationFailed(
      'body',
      `The request body nests arrays and objects ${depth} levels deep; at most ${REQUEST_BODY_MAX_DEPTH} are read (as by the service): flatten it.`,
    );
  return body as Record<string, any>;
}

/**
 * Validates a JSON body against the operation's request schema, then `more` adds the checks the
 * schema cannot express; every error found is reported in one 422.
 */
export async function validateBody(
  ctx: SandboxContext,
  body: Record<string, any>,
  operationId: OperationId,
  options: {
    accept?: (error: SchemaError, body: Record<string, any>) => boolean;
    more?: (body: Record<string, any>, errors: FieldErrors) => void | Promise<void>;
  } = {},
): Promise<Record<string, any>> {
  const errors = new FieldErrors();
  addSchemaErrors(ctx.validator, operationId, body, errors, options.accept);
  await options.more?.(body, errors);
  if (errors.size > 0) throw errors.toHttpError();
  return body;
}

export { HttpError };
