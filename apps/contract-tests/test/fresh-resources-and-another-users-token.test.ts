// Two invariants of the explorer no check was written for (issue 27): a resource the run just made
// lists no children yet (its children derived from the spec's paths), and another user's real token
// is refused by every read of the target's workspace and forms. Each is proved by a sandbox fault
// of its class, caught by name on both sandboxes over a few seeds (printed), and the healthy
// sandboxes pass it.
import { FAULT_CATALOGUE } from '@forms-api/sandbox/faults';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPLORE_BUDGET, DEFAULT_EXPLORE_TIME_LIMIT_MS, exploreSuite } from '../src/explore/explore.js';
import { runTarget } from '../src/runner.js';
import { loadSpec } from '../src/spec.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';

const spec = loadSpec();
const FRESH = 'explore: a resource the run just made lists no children yet';
const OTHER_USER = "explore: another user's token is refused by every read of the target's workspace and forms";

/** The explorer's checks of the fault's operations on a sandbox with `fault` (or none), with `seed`. */
async function explored(
  behaviour: 'contract' | 'observed',
  seed: number,
  fault?: 'new-form-lists-old-submissions' | 'new-form-lists-old-integrations' | 'access-cached-per-resource',
) {
  const operations: readonly string[] | undefined = fault ? FAULT_CATALOGUE[fault].operations : undefined;
  const target = await startSandboxTarget({ behaviour, proxyPass: false, ...(fault ? { faults: [fault] } : {}) });
  try {
    const suites = exploreSuite(spec, {
      seed,
      budget: DEFAULT_EXPLORE_BUDGET,
      timeLimitMs: DEFAULT_EXPLORE_TIME_LIMIT_MS,
    })
      .filter((s) => !operations || operations.includes(s.operationId))
      .map((s) => ({ ...s, checks: s.checks.filter((c) => c.name === FRESH || c.name === OTHER_USER) }));
    return await runTarget(target, { spec, suites, signal: new AbortController().signal });
  } finally {
    await target.stop();
  }
}

describe('fresh resources and another user', () => {
  it('derives the children of what a sequence makes from the paths, and every read with a workspace or form parent', () => {
    const checks = exploreSuite(spec, { seed: 1, budget: 1, timeLimitMs: 1 }).flatMap((s) =>
      s.checks.map((c) => ({ operationId: s.operationId, name: c.name })),
    );
    expect(checks.filter((c) => c.name === FRESH).map((c) => c.operationId)).toEqual([
      'listFormSubmissions',
      'listFormIntegrations',
      'listIntegrationEvents',
    ]);
    expect(checks.filter((c) => c.name === OTHER_USER)).toHaveLength(1);
  });

  for (const behaviour of ['contract', 'observed'] as const)
    for (const seed of [3, 27]) {
      it(`finds a new form listing old submissions or integrations, and access remembered per resource, on the ${behaviour} sandbox (seed ${seed})`, async () => {
        console.log(`${behaviour} sandbox, explorer seed ${seed}`);
        const healthy = await explored(behaviour, seed);
        expect(
          healthy.filter((r) => r.outcome !== 'passed').map((r) => `${r.name}: ${r.outcome} ${r.reason ?? ''}`),
        ).toEqual([]);
        expect(healthy.map((r) => r.name)).toEqual(expect.arrayContaining([FRESH, OTHER_USER]));
        const fresh = await explored(behaviour, seed, 'new-form-lists-old-submissions');
        expect(fresh.find((r) => r.name === FRESH && r.outcome === 'failed')?.reason).toMatch(
          /fresh-resource-has-children: form \d+, just made by createForm, lists \d+ row/,
        );
        const integrations = await explored(behaviour, seed, 'new-form-lists-old-integrations');
        expect(integrations.find((r) => r.name === FRESH && r.outcome === 'failed')?.reason).toMatch(
          /fresh-resource-has-children: form \d+, just made by createForm, lists \d+ row/,
        );
        const cached = await explored(behaviour, seed, 'access-cached-per-resource');
        expect(cached.find((r) => r.name === OTHER_USER && r.outcome === 'failed')?.reason).toMatch(
          /other-user-reads-the-target/,
        );
      }, 300_000);
    }
});
