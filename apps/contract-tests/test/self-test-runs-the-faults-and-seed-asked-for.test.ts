// The self-test can be asked for some faults and another seed (what `pnpm fault-seeds` sweeps):
// only those run, each verdict is told as soon as it is reached and names the checks that reported
// it, and a fault the source does not have is refused before anything starts.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/spec.js';
import { sandboxFaultSource } from '../src/selftest/faults.js';
import { runSelfTest } from '../src/selftest/run-self-test.js';

describe('the self-test, narrowed', () => {
  it('runs only the faults asked for, with the seed asked for, and names the checks that caught each', async () => {
    const source = sandboxFaultSource('contract');
    const told: unknown[] = [];
    const report = await runSelfTest(loadSpec(), source, {
      seed: 7,
      faults: ['unsorted'],
      onVerdict: (verdict) => told.push(verdict),
    });
    expect(report.baselineFailures).toEqual([]);
    // Each verdict is told as its run ends (a sweep prints as it goes), the same the report holds.
    expect(told).toEqual(report.verdicts);
    expect(report.verdicts.map((v) => v.fault)).toEqual(['unsorted']);
    const [verdict] = report.verdicts;
    expect(verdict!.caught).toBe(true);
    // The explorer's finding comes first: it is what shows the fault is found without being described.
    expect(verdict!.caughtBy[0]).toMatch(/^explore: /);
    expect(verdict!.evidence.some((e) => e.includes(` › ${verdict!.caughtBy[0]}: `))).toBe(true);
  }, 120_000);

  it('refuses a fault the source does not have', async () => {
    await expect(
      runSelfTest(loadSpec(), sandboxFaultSource('contract'), { faults: ['no-such-fault'] }),
    ).rejects.toThrow(/has no fault no-such-fault/);
  });
});
