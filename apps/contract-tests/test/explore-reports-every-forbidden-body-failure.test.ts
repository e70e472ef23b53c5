// The forbidden-body explorer tries every case its budget allows and reports each failing one, not
// the first: on the observed sandbox (known drift on some bodies) with a fault that breaks the
// others, the known drift is reported as known and every broken case, on each write, as new.
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXPLORE_TIME_LIMIT_MS, exploreSuite } from '../src/explore/explore.js';
import { runTarget } from '../src/runner.js';
import { loadSpec } from '../src/spec.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';

const spec = loadSpec();
const CHECK = 'explore: request bodies the schema forbids are refused';

describe('the forbidden-body explorer', () => {
  it('reports every failing case, known and new, where one used to hide the rest', async () => {
    const target = await startSandboxTarget({ behaviour: 'observed', faults: ['server-error-on-invalid-body'] });
    try {
      const suites = exploreSuite(spec, {
        seed: 7,
        // Enough for every forbidden body of every write (a few hundred requests on a local sandbox).
        budget: 5_000,
        timeLimitMs: DEFAULT_EXPLORE_TIME_LIMIT_MS,
      }).map((s) => ({ ...s, checks: s.checks.filter((c) => c.name === CHECK) }));
      const results = await runTarget(target, { spec, suites, signal: new AbortController().signal });
      const result = results.find((r) => r.name === CHECK)!;
      expect(result.outcome).toBe('failed');
      // The known drift (a number sent as text is accepted) is still reported, matched to the ledger.
      expect(result.driftIds.length).toBeGreaterThan(0);
      const found = (result.reason ?? '').split('\n').filter((line) => line.includes('found by the explorer'));
      const cases = new Set(found.map((line) => /case: (.*?)\); replay/.exec(line)?.[1]));
      const operations = new Set([...cases].map((c) => c?.split(' ')[0]));
      expect(cases.size).toBeGreaterThan(10);
      expect([...operations].sort()).toEqual([
        'createFormIntegration',
        'updateFormIntegration',
        'updateFormSubmission',
      ]);
    } finally {
      await target.stop();
    }
  }, 300_000);
});
