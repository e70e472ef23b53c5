// The run's report as data: results per target, totals, the ledger entries seen and not seen,
// and the exit code. Rendered as text, JUnit XML and JSON by the sibling modules.
import type { DriftLedger } from '../drift.js';
import type { CheckResult, Outcome } from '../model.js';

export interface TargetRun {
  readonly name: string;
  readonly kind: 'mock' | 'live';
  /** Set when the target could not be started or configured: counts as a failure. */
  readonly error?: string;
}

export type Totals = Record<Outcome, number>;

export interface RunReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly strict: boolean;
  readonly targets: TargetRun[];
  readonly results: CheckResult[];
  readonly totals: Totals;
  /** Ledger entries matched by some result, with how often; only when a live target ran. */
  readonly ledgerSeen: Array<{ id: string; title: string; count: number }>;
  /** Ledger entries never matched: maybe fixed upstream, maybe not exercised. */
  readonly ledgerNotSeen: Array<{ id: string; title: string }>;
  readonly exitCode: 0 | 1;
}

export function emptyTotals(): Totals {
  return { passed: 0, failed: 0, 'known-drift': 0, skipped: 0, info: 0 };
}

export function totalsOf(results: readonly CheckResult[]): Totals {
  const totals = emptyTotals();
  for (const r of results) totals[r.outcome]++;
  return totals;
}

export function buildReport(input: { startedAt: Date; strict: boolean; targets: TargetRun[]; results: CheckResult[]; ledger: DriftLedger }): RunReport {
  const { results, ledger, strict, targets } = input;
  const totals = totalsOf(results);
  const counts = new Map<string, number>();
  for (const r of results) for (const id of r.driftIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  const liveRan = targets.some((t) => t.kind === 'live' && !t.error);
  const failed = totals.failed > 0 || targets.some((t) => t.error) || (strict && totals['known-drift'] > 0);
  return {
    startedAt: input.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    strict,
    targets,
    results,
    totals,
    ledgerSeen: ledger.entries.filter((e) => counts.has(e.id)).map((e) => ({ id: e.id, title: e.title, count: counts.get(e.id)! })),
    ledgerNotSeen: liveRan ? ledger.entries.filter((e) => !counts.has(e.id)).map((e) => ({ id: e.id, title: e.title })) : [],
    exitCode: failed ? 1 : 0,
  };
}
