// The spec's operations as the sandbox serves them, from the generated table in @forms-api/types:
// route registration by operationId (method and path from the table) and the reverse lookup from a
// request's method and path to its operationId (used by the behaviour layer).
import type { Context, Hono } from 'hono';
import { OPERATIONS, type OperationId } from '@forms-api/types';

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

interface Row {
  operationId: OperationId;
  method: string;
  segments: string[];
  templated: number;
}

// Literal segments win over templated ones, so rows with fewer templates are tried first.
const ROWS: Row[] = Object.values(OPERATIONS)
  .map((op) => {
    const segments = op.path.split('/');
    return {
      operationId: op.operationId,
      method: op.method,
      segments,
      templated: segments.filter((s) => s.startsWith('{')).length,
    };
  })
  .sort((a, b) => a.templated - b.templated);

/** The operation a request is for (`path` may carry a query string), or undefined when none matches. */
export function operationOf(method: string, path: string): OperationId | undefined {
  const segments = path.split('?', 1)[0]!.split('/');
  const upper = method.toUpperCase();
  return ROWS.find(
    (row) =>
      row.method === upper &&
      row.segments.length === segments.length &&
      row.segments.every((s, i) => (s.startsWith('{') ? segments[i] !== '' : s === segments[i])),
  )?.operationId;
}
