// The run's report as data: results per target, totals, the ledger entries seen and not seen,
// and the exit code. Rendered as text, JUnit XML and JSON by the sibling modules.
import type { DriftLedger } from '@forms-api/spec/drift';
import { daysBetween, sightingsAfter, type AllowedEntrySighting, type DriftTracking } from '../allow-drift.js';
import type { CheckResult, Outcome } from '../model.js';
import type { TargetCoverage } from './coverage.js';

export interface TargetRun {
  readonly name: string;
  /** `mock`: Prism; `sandbox`: a sandbox the suite started (never a real tenant); `live`: a tenant of the service. */
  readonly kind: 'mock' | 'sandbox' | 'live';
  /** Set when the target could not be started or configured: counts as a failure. */
  readonly error?: string;
  /** What the ledger must show on it: every entry (a sandbox behaving like the service), or none (one following the contract). */
  readonly expectsDrift?: DriftExpectation;
  /** What the run sent to it and how long it took (absent when it did not start). */
  readonly traffic?: TargetTraffic;
}

export interface TargetTraffic {
  /** Requests sent (with pacing: each send, a request sent again after a 429 included). */
  readonly requests: number;
  readonly durationMs: number;
  /** With pacing: the budget kept within, the time requests waited, the 429s met and those still refused past the bound. */
  readonly requestsPerMinute?: number;
  readonly waitedMs?: number;
  readonly rateLimitedWaitMs?: number;
  readonly rateLimited?: number;
  readonly gaveUp?: number;
  /** The tenant's answers carried no `X-RateLimit-Limit`: its requests were not spaced (until a 429). */
  readonly unlimited?: boolean;
}

/** `2 min 5 s`, `41 s`, `0.4 s`. */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** `every-entry`: each ledger entry must be seen on the target; `none`: no known drift may be. */
export type DriftExpectation = 'every-entry' | 'none';

export type Totals = Record<Outcome, number>;

export interface RunReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  /** The explorer's seed (replays the run's generated cases with --seed) and bounds; absent when it did not run. */
  readonly explore?: { readonly seed: number; readonly budget: number; readonly timeLimitMs: number };
  readonly strict: boolean;
  /** With --strict and --allow-drift: the entries whose known drift does not fail the run, and those whose allowance expired. */
  readonly allowedDrift?: {
    readonly ids: string[];
    readonly expired: Array<{ id: string; until: string }>;
    /** With --not-seen-days: the number of days, and when each listed entry was last seen on a tenant (read by the next run). */
    readonly notSeenDays?: number;
    readonly sightings?: AllowedEntrySighting[];
    /** Listed entries no tenant has shown for `notSeenDays` or more: reported, never failing the run. */
    readonly notSeen?: Array<AllowedEntrySighting & { days: number }>;
  };
  readonly targets: TargetRun[];
  readonly results: CheckResult[];
  readonly totals: Totals;
  /** Ledger entries matched by some result, with how often and on which targets. */
  readonly ledgerSeen: Array<{ id: string; title: string; count: number; targets: string[] }>;
  /**
   * Ledger entries a real tenant (a `live` target) did not show though the operation they are about
   * ran on it: maybe fixed upstream, maybe not exercised. Empty when no tenant ran: the sandboxes
   * say nothing of what the service still does.
   */
  readonly ledgerNotSeen: Array<{ id: string; title: string }>;
  /** Targets whose drift expectation was not met, each with what went wrong; each fails the run. */
  readonly expectationFailures: string[];
  /** What each target's exchanges covered of the spec (written as coverage.json, not in contract-report.json). */
  readonly coverage: TargetCoverage[];
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

/**
 * The operations whose runs should show an entry: the one it names, or, for one that names none (a
 * webhook's), those its matches name. An entry of the list that an update's answer may also show
 * (when the submission carries attribution) is not expected of a run of the update alone.
 */
const ownOperations = (e: Pick<DriftLedger, 'entries'>['entries'][number]): string[] =>
  e.operationId ? [e.operationId] : e.match.map((m) => m.operationId);

export function buildReport(input: {
  startedAt: Date;
  strict: boolean;
  targets: TargetRun[];
  results: CheckResult[];
  ledger: Pick<DriftLedger, 'entries'>;
  explore?: RunReport['explore'];
  coverage?: TargetCoverage[];
  allowedDrift?: { ids: string[]; expired: Array<{ id: string; until: string }>; tracking?: DriftTracking };
}): RunReport {
  const { results, ledger, strict, targets } = input;
  const totals = totalsOf(results);
  const counts = new Map<string, number>();
  const seenOn = new Map<string, Set<string>>();
  for (const r of results) {
    for (const id of r.driftIds) {
      counts.set(id, (counts.get(id) ?? 0) + 1);
      seenOn.set(id, (seenOn.get(id) ?? new Set()).add(r.target));
    }
  }
  // What the real tenants showed: their own results and their prism proxy passes'.
  const tenants = new Set(
    targets.filter((t) => t.kind === 'live' && !t.error).flatMap((t) => [t.name, `${t.name} (prism proxy)`]),
  );
  const onTenants = results.filter((r) => tenants.has(r.target));
  const seenOnTenants = new Set(onTenants.flatMap((r) => r.driftIds));
  // An operation ran when one of its checks did (not skipped): `--operation` or a missing setting leaves others out.
  const ranOnTenants = new Set(onTenants.filter((r) => r.outcome !== 'skipped').map((r) => r.operationId));
  const expectationFailures = targets.flatMap((t) => {
    if (t.error || !t.expectsDrift) return [];
    // Results of the target itself (its proxy pass is a target of its own name plus a suffix).
    const mine = results.filter((r) => r.target === t.name);
    if (t.expectsDrift === 'none') {
      const drift = [...new Set(mine.flatMap((r) => r.driftIds))];
      return drift.length > 0 ? [`${t.name} follows the contract, yet showed known drift: ${drift.join(', ')}`] : [];
    }
    const seen = new Set(mine.flatMap((r) => r.driftIds));
    // Entries of operations that ran (a run limited with --operation expects only theirs).
    const ran = new Set(mine.map((r) => r.operationId));
    const missing = ledger.entries
      .filter((e) => !seen.has(e.id) && ownOperations(e).some((operationId) => ran.has(operationId)))
      .map((e) => e.id);
    return missing.length > 0
      ? [
          `${t.name} behaves like the service, yet did not show: ${missing.join(', ')} (the sandbox no longer reproduces it, or the suite no longer recognises it)`,
        ]
      : [];
  });
  const strictDrift = results.some((r) => failsUnderStrict(input, r));
  const failed =
    totals.failed > 0 || targets.some((t) => t.error) || (strict && strictDrift) || expectationFailures.length > 0;
  return {
    startedAt: input.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Date.now() - input.startedAt.getTime(),
    ...(input.explore ? { explore: input.explore } : {}),
    strict,
    ...(input.allowedDrift ? { allowedDrift: allowedDriftOf(input.allowedDrift, seenOnTenants, input.startedAt) } : {}),
    targets,
    results,
    totals,
    ledgerSeen: ledger.entries
      .filter((e) => counts.has(e.id))
      .map((e) => ({ id: e.id, title: e.title, count: counts.get(e.id)!, targets: [...seenOn.get(e.id)!] })),
    ledgerNotSeen: ledger.entries
      .filter((e) => !seenOnTenants.has(e.id) && ownOperations(e).some((operationId) => ranOnTenants.has(operationId)))
      .map((e) => ({ id: e.id, title: e.title })),
    expectationFailures,
    coverage: input.coverage ?? [],
    exitCode: failed ? 1 : 0,
  };
}

function allowedDriftOf(
  { ids, expired, tracking }: NonNullable<Parameters<typeof buildReport>[0]['allowedDrift']>,
  seenOnTenants: ReadonlySet<string>,
  startedAt: Date,
): NonNullable<RunReport['allowedDrift']> {
  if (!tracking) return { ids, expired };
  const today = startedAt.toISOString().slice(0, 10);
  const sightings = sightingsAfter([...ids, ...expired.map((e) => e.id)], tracking.previous, seenOnTenants, today);
  const notSeen = sightings
    .map((s) => ({ ...s, days: daysBetween(s.lastSeen ?? s.trackedSince, today) }))
    .filter((s) => s.days >= tracking.days);
  return { ids, expired, notSeenDays: tracking.days, sightings, notSeen };
}

/**
 * Whether a result fails a --strict run: known drift, except where it is the expectation (the
 * observed sandbox and its proxy pass) and except drift of entries the --allow-drift file accepts.
 */
export function failsUnderStrict(
  report: Pick<RunReport, 'strict' | 'targets' | 'allowedDrift'>,
  result: CheckResult,
): boolean {
  if (!report.strict || result.outcome !== 'known-drift') return false;
  const reference = report.targets.find(
    (t) =>
      t.expectsDrift === 'every-entry' && (result.target === t.name || result.target === `${t.name} (prism proxy)`),
  );
  if (reference) return false;
  const allowed = report.allowedDrift?.ids ?? [];
  return result.driftIds.length === 0 || result.driftIds.some((id) => !allowed.includes(id));
}
