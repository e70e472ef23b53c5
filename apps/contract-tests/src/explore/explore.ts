// The explorer: cases generated from the spec's own schemas (fast-check: seeds, shrinking), judged
// on every exchange like every other check (status documented, content type, body valid for that
// status; no 5xx; no, a wrong or a forged token 401, a token lacking the ability 403; the list promises),
// stateful sequences that follow the spec's `links`, wrong parents and another workspace's form,
// what a resource just made lists (nothing yet), and another user's token on the target's reads.
// The operations come from the spec (`operationsOf`, the suite's one reading of it): what a path
// parameter identifies, the query parameters, the links and the request bodies decide which
// exploration reaches which operation.
// Each exploration is an ordinary check of the runner; each generated case runs by the runner's
// rules (`runInContext`, `verdictsOf`), and a finding is the shrunk case with the seed (search.ts).
// What the checks share is built once per suite (explorer.ts: the operations, the sequences, the
// temporary resources; requests.ts and request-bodies.ts: what they send); each family of checks
// is a file of its own (auth-, isolation-, query-, sequence-, forbidden-body-checks.ts, read-after-write.ts).
import type { OperationId } from '@forms-api/types';
import type { SpecArtifacts } from '../spec.js';
import type { Check, OperationSuite } from '../suites/types.js';
import { tokenChecks, writesWithoutTheRightChecks } from './auth-checks.js';
import { createExplorer } from './explorer.js';
import { forbiddenBodyChecks } from './forbidden-body-checks.js';
import { foreignParentChecks, otherUserChecks, wrongParentChecks } from './isolation-checks.js';
import { queryChecks } from './query-checks.js';
import { readAfterWriteChecks } from './read-after-write.js';
import type { ExploreCheck, ExploreOptions } from './search.js';
import { freshResourceChecks, linkSequenceChecks, updatedSubmissionChecks } from './sequence-checks.js';

export type { ExploreOptions } from './search.js';

/** The default budget: a few seconds on a sandbox, two minutes of a tenant's 100 a minute. */
export const DEFAULT_EXPLORE_BUDGET = 200;
export const DEFAULT_EXPLORE_TIME_LIMIT_MS = 90_000;

/**
 * The explore checks, from the spec's operations: auth on every secured operation, generated query
 * parameters on every list a target can address, a links sequence for every operation whose links
 * lead to a delete, the read-back of every update whose links lead to a list, wrong parents,
 * another workspace's form, forbidden bodies and writes without the right on every write.
 */
export function exploreSuite(spec: SpecArtifacts, options: ExploreOptions): OperationSuite[] {
  const checks: ExploreCheck[] = [];
  const explorer = createExplorer(spec, options, checks);
  // In this order, always: a check's share of a target's budget depends on the checks before it,
  // and a seed must send the same cases.
  checks.push(
    ...tokenChecks(explorer),
    ...queryChecks(explorer),
    ...linkSequenceChecks(explorer),
    ...wrongParentChecks(explorer),
    ...foreignParentChecks(explorer),
    ...freshResourceChecks(explorer),
    ...otherUserChecks(explorer),
    ...forbiddenBodyChecks(explorer),
    ...writesWithoutTheRightChecks(explorer),
    ...updatedSubmissionChecks(explorer),
    // Read-after-write and preserved fields, on every write whose answer carries what it wrote.
    ...readAfterWriteChecks(explorer),
  );

  // Cheap exhaustive checks first: they take their few requests off the top of the budget.
  checks.sort((a, b) => Number(b.exhaustive ?? false) - Number(a.exhaustive ?? false));
  const byOperation = new Map<string, Check[]>();
  for (const check of checks)
    byOperation.set(check.operationId, [...(byOperation.get(check.operationId) ?? []), check]);
  return [...byOperation].map(([operationId, list]) => ({ operationId: operationId as OperationId, checks: list }));
}
