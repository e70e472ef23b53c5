// Types of operations-module.mjs, for the tests that generate the operations module from other specs.
export interface OperationRow {
  operationId: string;
  method: string;
  path: string;
  abilities: string[];
  statuses: number[];
  public: boolean;
}
/** One row per operation of a bundled OpenAPI document, in the order the spec lists them. */
export function operationRows(bundle: { paths?: Record<string, unknown>; security?: unknown[] }): OperationRow[];
/** The text of src/generated/operations.ts without its header. */
export function operationsModule(rows: OperationRow[]): string;
