// What every route needs: the store, the configured base URL, the spec validator, and the checks
// the service runs in one order for every operation: token (401) → every resource the path names
// (404) → membership and the operation's abilities (403) → input (422).
import type { Context } from 'hono';
import type { SpecValidator, ValidationResult } from '@forms-api/spec/validator';
import { OPERATIONS, type OperationId } from '@forms-api/types';
import type { Dispatcher } from './dispatch/dispatcher.js';
import type { WebhookUrlPolicy } from './dispatch/webhook-url.js';
import type { FileSigner } from './files.js';
import { FieldErrors, HttpError, forbidden, notFound, unauthenticated, validationFailed } from './http.js';
import type { AccessToken, Form, User } from './model.js';
import type { SandboxStore } from './store/store.js';

type SchemaError = ValidationResult['errors'][number];

export interface SandboxContext {
  /** The bundled spec (components are looked up in it). */
  bundle: { components: { parameters: Record<string, Record<string, any>>; schemas: Record<string, Record<string, any>> } };
  store: SandboxStore;
  validator: SpecValidator;
  files: FileSigner;
  dispatcher: Dispatcher;
  webhookUrls: WebhookUrlPolicy;
  /** Where clients reach the sandbox; every URL the sandbox writes starts with it (never with a request's Host). */
  baseUrl: string;
  now: () => number;
}

export interface Caller {
  token: AccessToken;
  user: User;
}

export const bearerToken = (c: Context): string | undefined => /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim();

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
 * abilities (from the spec's table). `editor`: read-only members are refused too.
 */
export function authorise(who: Caller, workspaceId: number, operationId: OperationId, options: { editor?: boolean } = {}): void {
  const role = roleIn(who.user, workspaceId);
  if (!role || (options.editor && role === 'readonly')) throw forbidden();
  const abilities: readonly string[] = OPERATIONS[operationId].abilities;
  if (!abilities.some((a) => (who.token.abilities as readonly string[]).includes(a))) throw forbidden();
}

export function formOr404(ctx: SandboxContext, idOrSlug: string, bySlug = false): Form {
  const form = bySlug || /^\d+$/.test(idOrSlug) ? ctx.store.formByIdOrSlug(idOrSlug) : undefined;
  if (!form) throw notFound('Forms\\Form', /^\d+$/.test(idOrSlug) ? Number(idOrSlug) : undefined);
  return form;
}

/** Validates the query against the operation's documented query parameters (422 on failure). */
export function validateQuery(ctx: SandboxContext, c: Context, operationId: OperationId): Record<string, unknown> {
  const entry = ctx.validator.operations.get(operationId)!;
  const parameters = ((entry.operation.parameters as Array<Record<string, any>>) ?? []).map((p) => resolveParameter(ctx, p)).filter((p) => p.in === 'query');
  const values: Record<string, unknown> = {};
  const errors = new FieldErrors();
  for (const parameter of parameters) {
    const raw = c.req.query(parameter.name);
    if (raw === undefined) {
      if (parameter.schema?.default !== undefined) values[parameter.name] = parameter.schema.default;
      continue;
    }
    const value = parameter.schema?.type === 'integer' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
    const result = ctx.validator.validateSchema(`${operationId} query ${parameter.name}`, parameter.schema, value);
    if (!result.valid) for (const e of result.errors) errors.add(parameter.name, `The ${parameter.name.replaceAll('_', ' ')} field ${e.message}.`);
    values[parameter.name] = value;
  }
  if (errors.size > 0) throw errors.toHttpError();
  return values;
}

/** The JSON body as an object, or a 422 saying it is not one. */
export async function jsonBody(c: Context): Promise<Record<string, any>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw validationFailed('body', 'The request body must be a JSON object.');
  return body as Record<string, any>;
}

/**
 * Validates a JSON body against the operation's request schema, then `more` adds the checks the
 * schema cannot express; every error found is reported in one 422. `accept` drops a schema error
 * the sandbox's configuration allows.
 */
export async function validateBody(
  ctx: SandboxContext,
  c: Context,
  operationId: OperationId,
  options: { accept?: (error: SchemaError, body: Record<string, any>) => boolean; more?: (body: Record<string, any>, errors: FieldErrors) => void | Promise<void> } = {},
): Promise<Record<string, any>> {
  const body = await jsonBody(c);
  const errors = new FieldErrors();
  const result = ctx.validator.validateRequestBody(operationId, body);
  const refused = result.valid ? [] : result.errors.filter((e) => !options.accept?.(e, body));
  for (const e of refused) {
    // The branches of a composite schema are reported by their own errors.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const path = [...e.instancePath.split('/').filter(Boolean), ...(e.params && 'missingProperty' in e.params ? [String(e.params.missingProperty)] : [])];
    const key = path.join('.') || 'body';
    errors.add(key, `The ${key.replace(/^data\./, '').replaceAll('_', ' ')} field ${e.message}.`);
  }
  if (refused.length > 0 && errors.size === 0) errors.add('body', 'The request body is invalid.');
  await options.more?.(body, errors);
  if (errors.size > 0) throw errors.toHttpError();
  return body;
}

function resolveParameter(ctx: SandboxContext, parameter: Record<string, any>): Record<string, any> {
  if (!parameter.$ref) return parameter;
  return ctx.bundle.components.parameters[String(parameter.$ref).split('/').pop()!] ?? parameter;
}

export { HttpError };
