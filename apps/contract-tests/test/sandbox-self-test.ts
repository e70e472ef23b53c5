// The self-test on the sandbox's fault switches, for one behaviour: its own test file per
// behaviour, so that the two runs (each a minute or more) go side by side with the rest.
import { FAULT_CATALOGUE, SANDBOX_FAULTS, type SandboxBehaviour, type SandboxFault } from '@forms-api/sandbox/faults';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/spec.js';
import { sandboxFaultSource } from '../src/selftest/faults.js';
import { renderSelfTest, runSelfTest } from '../src/selftest/run-self-test.js';

export function sandboxSelfTest(behaviour: SandboxBehaviour): void {
  describe(`self-test: sandbox fault switches (${behaviour})`, () => {
    it('reports every fault, and none on the healthy sandbox', async () => {
      const source = sandboxFaultSource(behaviour);
      try {
        // The faults the catalogue says generated cases find: their runs have the explorer alone.
        const deep = SANDBOX_FAULTS.filter((name) => FAULT_CATALOGUE[name].foundByExplorer);
        // Each fault's run ends at its first finding: what shows it caught, at a fraction of the cost.
        const report = await runSelfTest(loadSpec(), source, { firstFinding: true, explorerAlone: deep });
        console.log(renderSelfTest(report));
        expect(report.baselineFailures.map((r) => `${r.operationId} ${r.name}: ${r.reason}`)).toEqual([]);
        expect(report.verdicts.filter((v) => !v.caught).map((v) => v.fault)).toEqual([]);
        expect(report.caught).toBe(report.total);
        // Each run ended at its first finding: one check named per fault.
        expect(report.verdicts.filter((v) => v.caughtBy.length !== 1).map((v) => v.fault)).toEqual([]);
        // Each deep fault found by the explorer within its default budget, by name.
        expect(deep.length).toBeGreaterThan(0);
        expect(
          report.verdicts
            .filter((v) => deep.includes(v.fault as SandboxFault) && !v.byExplorer)
            .map((v) => `${v.fault}: ${v.evidence.join(' | ') || 'not reported'}`),
        ).toEqual([]);
      } finally {
        await source.close();
      }
    }, 600_000);
  });
}
