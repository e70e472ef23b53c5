// The suite's one error: why a run cannot start or a response cannot be read. Failures a check
// reports are not errors but values in the report (model.ts `Failure`).
import { BrandedError, guardFor } from '@forms-api/internal';

export type ContractTestsErrorKind =
  /** The command line is malformed; the message names the option (exit 2). */
  | 'usage'
  /** The live target's settings are missing or invalid; `context.missing` lists absent variables. */
  | 'live_config'
  /**
   * The live settings do not work against the tenant (checked before anything runs): it cannot be
   * reached, is not the forms API, refused the token, or an id does not exist. `context.problem`
   * says which, `context.setting` names the variable to fix (exit 3).
   */
  | 'preflight_failed'
  /** The webhook receiver's port, asked for in the settings, is held by another process; `context.setting` names it. */
  | 'port_in_use'
  /** The --allow-drift file cannot be read, or names an entry the ledger does not have (`context.unknown`), or a line is malformed (exit 2). */
  | 'allow_list'
  /** A process the suite starts (Prism) did not start or did not answer in time. */
  | 'start_failed'
  /** The embedded sandbox started, but its seed lacks what the suite needs. */
  | 'sandbox_unavailable'
  /** A response body is empty, not JSON, or longer than the suite reads. */
  | 'invalid_json'
  /** The explorer cannot turn a schema of the spec into values (a `$ref` cycle, a remote `$ref`, `false`). */
  | 'unsupported_schema'
  /** A hand suite names an operation the spec does not have (`context.stale`): the spec lost or renamed it. */
  | 'hand_suite_without_operation';

/** What was judged (a limit, a variable name, a process label); never a token. */
export type ContractTestsErrorContext = Readonly<Record<string, unknown>>;

export class ContractTestsError extends BrandedError<ContractTestsErrorKind, ContractTestsErrorContext> {
  static override readonly brand = Symbol.for('@forms-api/contract-tests/error');
  override readonly name = 'ContractTestsError';
}

/** Whether `value` is a ContractTestsError, from this copy of the module or any other (not `instanceof`). */
export const isContractTestsError = guardFor(ContractTestsError);
