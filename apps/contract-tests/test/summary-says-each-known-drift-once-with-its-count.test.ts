// A new user's trial: the main job's summary listed the same known-drift line 66 times (one check
// repeated over pages and seeds). Each distinct line is printed once, with how many times it was seen.
import { describe, expect, it } from 'vitest';
import { buildReport } from '../src/report/model.js';
import { renderSummary } from '../src/report/text.js';
import { loadSpec } from '../src/spec.js';
import type { CheckResult } from '../src/model.js';

const drift = (name: string, id: string): CheckResult => ({
  target: 'sandbox (observed)',
  operationId: 'listFormSubmissions',
  name,
  outcome: 'known-drift',
  reason: `known drift: ${id}`,
  failures: [],
  driftIds: [id],
  curl: [],
  durationMs: 1,
});

describe('the summary of known drift', () => {
  it('prints each distinct finding once, with its count', () => {
    const spec = loadSpec();
    const [first, second] = spec.ledger.entries.map((e) => e.id);
    const report = buildReport({
      startedAt: new Date(),
      strict: false,
      targets: [{ name: 'sandbox (observed)', kind: 'live' }],
      results: [...Array.from({ length: 66 }, () => drift('pagination', first!)), drift('filter', second!)],
      ledger: spec.ledger,
    });
    const lines = renderSummary(report)
      .split('\n')
      .filter((line) => line.startsWith('~ '));
    expect(lines).toEqual([
      `~ [sandbox (observed)] listFormSubmissions › pagination: ${first} (66×)`,
      `~ [sandbox (observed)] listFormSubmissions › filter: ${second}`,
    ]);
    expect(report.totals['known-drift']).toBe(67);
  });
});
