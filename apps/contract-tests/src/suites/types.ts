// The shape of a suite: one module per operation, each exporting the checks for that operation.
import type { OperationId } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import type { Target } from '../targets/target.js';

export interface Check {
  /** Short name, unique within the operation (shown in the report and as the JUnit test case). */
  readonly name: string;
  readonly operationId: OperationId;
  /** Which target kinds it runs on; absent: both. */
  readonly on?: Target['kind'];
  /** Needs `--write` (on live targets; sandboxes are always writable). */
  readonly writes?: boolean;
  run(ctx: CheckContext): Promise<void>;
}

export interface OperationSuite {
  readonly operationId: OperationId;
  readonly checks: Check[];
}
