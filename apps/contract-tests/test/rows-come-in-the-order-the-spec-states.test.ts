// Every answer of a list is held to the order the spec states for its rows (`x-order`), whatever
// else the body gets wrong: on the observed sandbox a workspace's forms miss keys the spec requires
// (known drift), and forms listed oldest first must still fail the run as new drift (issue 27:
// ordering promises on every list the spec orders).
import { specOperations } from '@forms-api/spec/operations';
import { describe, expect, it } from 'vitest';
import { runTarget } from '../src/runner.js';
import { loadSpec } from '../src/spec.js';
import { suitesFor } from '../src/suites/index.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';

const spec = loadSpec();
const HAPPY = 'happy path: 200 and a valid body';

async function forms(behaviour: 'contract' | 'observed', fault?: 'forms-oldest-first') {
  const target = await startSandboxTarget({ behaviour, proxyPass: false, ...(fault ? { faults: [fault] } : {}) });
  try {
    const suites = suitesFor(spec.bundle).map((s) => ({ ...s, checks: s.checks.filter((c) => c.name === HAPPY) }));
    return await runTarget(target, {
      spec,
      suites,
      operations: ['listWorkspaceForms'],
      signal: new AbortController().signal,
    });
  } finally {
    await target.stop();
  }
}

describe('the order a list states', () => {
  it('is read from the spec for every list that states one', () => {
    const ordered = specOperations(spec.bundle)
      .filter((op) => op.rowOrder)
      .map((op) => `${op.operationId} ${op.rowOrder!.by} ${op.rowOrder!.descending ? 'descending' : 'ascending'}`);
    expect(ordered).toEqual([
      'listWorkspaceForms /updated_at descending',
      'listFormSubmissions /data/created_at descending',
      'listIntegrationEvents /created_at descending',
    ]);
  });

  for (const behaviour of ['contract', 'observed'] as const)
    it(`holds on the healthy ${behaviour} sandbox, and forms listed oldest first fail as new drift`, async () => {
      const healthy = await forms(behaviour);
      expect(healthy.filter((r) => r.outcome === 'failed').map((r) => r.reason)).toEqual([]);
      const reversed = await forms(behaviour, 'forms-oldest-first');
      const failed = reversed.filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => r.name)).toEqual([HAPPY]);
      expect(failed[0]!.reason).toMatch(
        /rows-out-of-order: not \/updated_at descending: 16 \("2025-10-07T09:00:00\+00:00"\) before 13/,
      );
    }, 60_000);
});
