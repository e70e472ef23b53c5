// Types of operations-module.mjs, for the tests that generate the operations module from other specs.
export interface OperationRow {
  operationId: string;
  method: string;
  path: string;
  abilities: string[];
  statuses: number[];
  public: boolean;
  /** The names of the query parameters. */
  query: string[];
  body: 'none' | 'optional' | 'required';
  /** What the 200 answer holds: a JSON body (application/json its one media type), a file, or nothing. */
  success: 'json' | 'file' | 'empty';
  /** The rate-limit bucket of its own the service counts it in (`x-rate-limit`); absent: the shared one. */
  rateLimit?: { bucket: string; limit: number; windowSeconds: number };
}
/** One row per operation of a bundled OpenAPI document, in the order the spec lists them. */
export function operationRows(bundle: { paths?: Record<string, unknown>; security?: unknown[] }): OperationRow[];
/** The text of src/generated/operations.ts without its header and the service's facts. */
export function operationsModule(rows: OperationRow[]): string;
/** The shared rate limit and the webhook's delivery, as module text (the end of src/generated/operations.ts). */
export function serviceModule(bundle: Record<string, unknown>): string;
