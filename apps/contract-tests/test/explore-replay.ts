// Runs the explorer's checks of one operation with a given seed, at the default budget, on a
// target: how a test replays the seed of a failure a random run of the suite once drew.
import { DEFAULT_EXPLORE_BUDGET, DEFAULT_EXPLORE_TIME_LIMIT_MS, exploreSuite } from '../src/explore/explore.js';
import type { CheckResult } from '../src/model.js';
import { runTarget } from '../src/runner.js';
import type { SpecArtifacts } from '../src/spec.js';
import type { Target } from '../src/targets/target.js';

export function replayExplorer(
  spec: SpecArtifacts,
  target: Target,
  seed: number,
  operationId: string,
): Promise<CheckResult[]> {
  const suites = exploreSuite(spec, {
    seed,
    budget: DEFAULT_EXPLORE_BUDGET,
    timeLimitMs: DEFAULT_EXPLORE_TIME_LIMIT_MS,
  }).filter((suite) => suite.operationId === operationId);
  return runTarget(target, { spec, suites, signal: new AbortController().signal });
}
