// Every list that takes `page` is read at the bounds it reports (issue 27: inputs drawn from what
// the tenant said): its last page and the page after it, each judged by the page invariants
// against the page asked for, each with the total of page 1. A list that clamps a page past its
// end is caught by that check alone, every run. And a list that states its order gives the same
// rows whatever the page size (a metamorphic relation): pages that start a row early, whose
// counts, meta and links still add up, are caught by that check alone. The healthy sandboxes pass both.
import { describe, expect, it } from 'vitest';
import { runTarget } from '../src/runner.js';
import { loadSpec } from '../src/spec.js';
import { suitesFor } from '../src/suites/index.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';

const spec = loadSpec();
const BOUNDS = 'the last page it reports holds the rest, the page after it none, each with the same total';
const SIZES = 'the same rows whatever the page size';

async function bounds(
  behaviour: 'contract' | 'observed',
  fault?: 'past-the-end-claims-the-last-page' | 'forms-pages-off-by-one',
  name = BOUNDS,
) {
  const target = await startSandboxTarget({ behaviour, proxyPass: false, ...(fault ? { faults: [fault] } : {}) });
  try {
    const suites = suitesFor(spec.bundle).map((s) => ({ ...s, checks: s.checks.filter((c) => c.name === name) }));
    return await runTarget(target, { spec, suites, signal: new AbortController().signal });
  } finally {
    await target.stop();
  }
}

describe('the bounds a list reports', () => {
  it('are read on every operation that takes page', () => {
    const withPage = suitesFor(spec.bundle).filter((s) => s.checks.some((c) => c.name === BOUNDS));
    expect(withPage.map((s) => s.operationId).sort()).toEqual(['listFormSubmissions', 'listWorkspaceForms']);
  });

  for (const behaviour of ['contract', 'observed'] as const)
    it(`hold on the healthy ${behaviour} sandbox, and a page past the end that claims the last is caught`, async () => {
      const healthy = await bounds(behaviour);
      // It ran on both lists (known drift of the observed sandbox's page keys aside), and failed on neither.
      expect(
        healthy
          .filter((r) => r.name === BOUNDS && r.outcome !== 'skipped')
          .map((r) => r.operationId)
          .sort(),
      ).toEqual(['listFormSubmissions', 'listWorkspaceForms']);
      expect(healthy.filter((r) => r.outcome === 'failed').map((r) => `${r.operationId}: ${r.reason}`)).toEqual([]);
      const clamped = await bounds(behaviour, 'past-the-end-claims-the-last-page');
      const caught = clamped.filter((r) => r.name === BOUNDS && r.outcome === 'failed');
      expect(caught.map((r) => r.operationId).sort()).toEqual(['listFormSubmissions', 'listWorkspaceForms']);
      for (const r of caught) expect(r.reason).toMatch(/current_page is \d+, but page \d+ was asked for/);
    }, 120_000);

  for (const behaviour of ['contract', 'observed'] as const)
    it(`give the same rows whatever the page size on the healthy ${behaviour} sandbox, and pages a row early are caught`, async () => {
      const healthy = await bounds(behaviour, undefined, SIZES);
      expect(
        healthy
          .filter((r) => r.name === SIZES && r.outcome !== 'skipped')
          .map((r) => r.operationId)
          .sort(),
      ).toEqual(['listFormSubmissions', 'listWorkspaceForms']);
      expect(healthy.filter((r) => r.outcome === 'failed').map((r) => `${r.operationId}: ${r.reason}`)).toEqual([]);
      const shifted = await bounds(behaviour, 'forms-pages-off-by-one', SIZES);
      const caught = shifted.filter((r) => r.outcome === 'failed');
      expect(caught.map((r) => `${r.operationId} ${r.name}`)).toEqual([`listWorkspaceForms ${SIZES}`]);
      expect(caught[0]!.reason).toMatch(
        /rows-differ-by-page-size: the first 6 rows as one page of 100 and as pages of 2 differ: \d+ (missing|2 times)/,
      );
    }, 120_000);
});
