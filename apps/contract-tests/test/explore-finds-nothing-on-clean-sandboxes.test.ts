// The explorer cries no wolf: over 10 different seeds, each with the default budget, it reports no
// unexpected failure on the sandbox following the contract, and on the sandbox behaving like the
// service only ledger entries (known drift). The seeds are printed by a failure's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXPLORE_BUDGET, DEFAULT_EXPLORE_TIME_LIMIT_MS, exploreSuite } from '../src/explore/explore.js';
import { runTarget } from '../src/runner.js';
import { loadSpec } from '../src/spec.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';
import type { Target } from '../src/targets/target.js';

const spec = loadSpec();
const SEEDS = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89];

describe.each(['contract', 'observed'] as const)('the explorer on the %s sandbox', (behaviour) => {
  let target: Target;
  beforeAll(async () => {
    target = await startSandboxTarget(behaviour === 'observed' ? { behaviour: 'observed' } : {});
  });
  afterAll(async () => {
    await target?.stop();
  });

  it(`reports no unexpected failure over ${SEEDS.length} seeds${behaviour === 'observed' ? ', only known drift' : ''}`, async () => {
    const unexpected: string[] = [];
    const drift = new Set<string>();
    let checks = 0;
    for (const seed of SEEDS) {
      const results = await runTarget(target, {
        spec,
        suites: exploreSuite(spec, {
          seed,
          budget: DEFAULT_EXPLORE_BUDGET,
          timeLimitMs: DEFAULT_EXPLORE_TIME_LIMIT_MS,
        }),
        signal: new AbortController().signal,
      });
      checks += results.length;
      for (const r of results) {
        if (r.outcome === 'failed') unexpected.push(`seed ${seed}: ${r.operationId} › ${r.name}: ${r.reason}`);
        for (const id of r.driftIds) drift.add(id);
      }
    }
    expect(checks).toBeGreaterThanOrEqual(SEEDS.length * 6);
    expect(unexpected).toEqual([]);
    if (behaviour === 'contract') expect([...drift]).toEqual([]);
    else for (const id of drift) expect(spec.ledger.entries.map((e) => e.id)).toContain(id);
  }, 600_000);
});
