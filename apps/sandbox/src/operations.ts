// The spec's operations as the sandbox serves them, from the generated table in @forms-api/types:
// route registration by operationId (method and path from the table) and the reverse lookup from a
// request's method and path to its operationId (used by the behaviour layer), by the matcher
// generated beside the table.
import type { Context, Hono } from 'hono';
import { OPERATIONS, matchOperation, type OperationId } from '@forms-api/types';

export type { OperationId };

/** Serves one operation at the method and path the spec gives it (`{name}` becomes Hono's `:name`). */
export function serve(
  app: Hono,
  operationId: OperationId,
  handler: (c: Context) => Response | Promise<Response>,
): void {
  const { method, path } = OPERATIONS[operationId];
  app.on(method, path.replace(/\{([^}]+)\}/g, ':$1'), handler);
}

/** The operation a request is for (`path` may carry a query string), or undefined when none matches. */
export function operationOf(method: string, path: string): OperationId | undefined {
  return matchOperation(method, path)?.operationId;
}
