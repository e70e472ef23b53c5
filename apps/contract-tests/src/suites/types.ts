// The shape of a suite: the checks of one operation (derived from the spec, plus its hand suite's own).
import type { CheckContext } from '../check-context.js';
import type { Target } from '../targets/target.js';

export interface Check {
  /** Short name, unique within the operation (shown in the report and as the JUnit test case). */
  readonly name: string;
  /** An operation of the spec (or `submissionCreatedWebhook` for the webhook's own checks). */
  readonly operationId: string;
  /** Which target kinds it runs on; absent: both. */
  readonly on?: Target['kind'];
  /** Needs `--write` (on live targets; sandboxes are always writable). */
  readonly writes?: boolean;
  /**
   * Changes the membership or existence of the user's workspaces (on temporary ones only): needs
   * `--destructive` besides `--write` on live targets; sandboxes allow it.
   */
  readonly destructive?: boolean;
  run(ctx: CheckContext): Promise<void>;
}

export interface OperationSuite {
  readonly operationId: string;
  readonly checks: Check[];
}
