// A property-based check used to stop at its first counterexample: a list that answers 500 to an
// unusual query value hid that the same list ignores its status filter. Each distinct defect a
// check meets is now reported, shrunk, with the seed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_EXPLORE_BUDGET, DEFAULT_EXPLORE_TIME_LIMIT_MS, exploreSuite } from '../src/explore/explore.js';
import { runTarget } from '../src/runner.js';
import { loadSpec } from '../src/spec.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';
import type { Target } from '../src/targets/target.js';

let target: Target | undefined;
beforeAll(async () => {
  target = await startSandboxTarget({ faults: ['server-error-on-unusual-query', 'ignore-filter'] });
});
afterAll(() => target?.stop());

it('reports both defects of a list that answers 500 to odd values and ignores its filter', async () => {
  const spec = loadSpec();
  const results = await runTarget(target!, {
    spec,
    suites: exploreSuite(spec, {
      seed: 18,
      budget: DEFAULT_EXPLORE_BUDGET,
      timeLimitMs: DEFAULT_EXPLORE_TIME_LIMIT_MS,
    }),
    signal: new AbortController().signal,
    operations: ['listFormSubmissions'],
  });
  const query = results.find((r) => r.name === 'explore: generated query parameters');
  expect(query?.outcome).toBe('failed');
  const findings = (query!.reason ?? '').split('\n').filter((line) => line.includes('found by the explorer'));
  expect(findings.some((line) => line.includes('received 500'))).toBe(true);
  expect(findings.some((line) => line.includes('filter-lets-other-status-through'))).toBe(true);
  // Each finding once, each with its own shrunk case and the seed to replay it.
  expect(findings.every((line) => line.includes('shrunk case:') && line.includes('--seed 18'))).toBe(true);
  expect(new Set(findings).size).toBe(findings.length);
});
