// The types of the forms service open API, generated from @forms-api/spec (src/generated/). The
// default names describe what the service sends (the contract widened by the drift ledger);
// `ContractTypes` holds the same names for the published contract.
import type * as ContractTypes from './generated/contract.js';
import {
  ABILITIES,
  OPERATIONS,
  SHARED_RATE_LIMIT,
  WEBHOOK_DELIVERY,
  matchOperation,
  type OperationMatch,
} from './generated/operations.js';

export type * from './generated/service.js';
export type { ContractTypes };
export { ABILITIES, OPERATIONS, SHARED_RATE_LIMIT, WEBHOOK_DELIVERY, matchOperation, type OperationMatch };
export { STATUS_DRIFT, type StatusDrift } from './generated/drift.js';

/** The operationIds of the open API. */
export type OperationId = keyof typeof OPERATIONS;
/** One row of the operations table generated from the spec. */
export type OperationSpec = (typeof OPERATIONS)[OperationId];
/** The HTTP methods the open API uses. */
export type OperationMethod = OperationSpec['method'];
/** Abilities a personal access token can carry (the scopes of the operations' security requirements). */
export type Ability = (typeof ABILITIES)[number];

/**
 * The one result shape of the toolkit: an expected outcome that may fail, told apart by `ok`
 * (`error` is the package's error; see CONTRIBUTING.md, "Errors and results"). Type only.
 */
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** The operation with this id (undefined for an id the spec does not have). */
export function operationById(operationId: string): OperationSpec | undefined {
  return Object.hasOwn(OPERATIONS, operationId) ? OPERATIONS[operationId as OperationId] : undefined;
}
