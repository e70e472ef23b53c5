// Every operation of the spec gets its checks derived (see derive.ts); the hand suites, keyed by
// operationId, add what the spec cannot say. An operation added to the spec needs no edit here.
import { operationsOf } from '../operations.js';
import { ContractTestsError } from '../errors.js';
import { operationSender, type HandSuite, type Send } from './common.js';
import { handWorkFor, operationChecks, type HandWork } from './derive.js';
import { suite as listWorkspaceForms } from './list-workspace-forms.js';
import { suite as listFormSubmissions } from './list-form-submissions.js';
import { suite as updateFormSubmission } from './update-form-submission.js';
import { suite as downloadSubmissionFile } from './download-submission-file.js';
import { suite as createFormIntegration } from './create-form-integration.js';
import { suite as updateFormIntegration } from './update-form-integration.js';
import { suite as createFormAnswer } from './create-form-answer.js';
import { suite as invitesAnUnusedAddress } from './add-workspace-user.js';
import * as workspaceSuites from './workspace-members.js';
import * as submissionSuites from './form-submission-removal-and-export.js';
import type { OperationSuite } from './types.js';

/** What some operations need beyond the derived checks, by operationId. */
export const handSuites: ReadonlyMap<string, HandSuite> = new Map(
  [
    listWorkspaceForms,
    listFormSubmissions,
    updateFormSubmission,
    downloadSubmissionFile,
    createFormIntegration,
    updateFormIntegration,
    createFormAnswer,
    invitesAnUnusedAddress,
    ...Object.values(workspaceSuites),
    ...Object.values(submissionSuites),
  ].map((hand) => [hand.operationId, hand]),
);

const senders = new Map<string, Send>();

/** The sender of an operation: its hand suite's, or the one the spec derives. */
export function sendOf(operationId: string): Send {
  let send = senders.get(operationId);
  if (!send) {
    send = handSuites.get(operationId)?.send ?? operationSender(operationId);
    senders.set(operationId, send);
  }
  return send;
}

/** The suite of every operation of `bundle`, in the spec's order. */
export function suitesFor(bundle: Record<string, unknown>): OperationSuite[] {
  const operations = operationsOf(bundle);
  const stale = [...handSuites.keys()].filter((id) => !operations.has(id));
  if (stale.length > 0)
    throw new ContractTestsError(
      'hand_suite_without_operation',
      `hand suites name operations the spec does not have: ${stale.join(', ')} (remove or rename their modules in apps/contract-tests/src/suites)`,
      { context: { stale } },
    );
  return [...operations.values()].map((op) => ({
    operationId: op.operationId,
    checks: operationChecks(op, operations, handSuites.get(op.operationId), sendOf),
  }));
}

/** What each operation of `bundle` still needs by hand, beyond what the suite derives (see handWorkFor). */
export function handWorkOf(bundle: Record<string, unknown>): Map<string, HandWork[]> {
  const operations = operationsOf(bundle);
  return new Map(
    [...operations.values()].map((op) => [
      op.operationId,
      handWorkFor(op, operations, handSuites.get(op.operationId), bundle),
    ]),
  );
}
