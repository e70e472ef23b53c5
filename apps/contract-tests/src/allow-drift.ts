// The --allow-drift file: the ledger entries whose known drift --strict still accepts, each until
// an optional date (then it fails again and is looked at anew). One entry id per line, `#`
// comments; an id the ledger does not have, a malformed line or date is refused, never skipped.
// With --not-seen-days, when each entry was last seen on a tenant, carried by the reports.
import { readFileSync } from 'node:fs';
import type { Result } from '@forms-api/types';
import { ContractTestsError } from './errors.js';

export interface AllowedDrift {
  /** Entries whose known drift does not fail a --strict run today. */
  readonly ids: ReadonlySet<string>;
  /** Entries listed with a date that has passed: --strict fails on them again. */
  readonly expired: ReadonlyArray<{ readonly id: string; readonly until: string }>;
  /** With --not-seen-days: report entries no tenant has shown for that many days. */
  readonly tracking?: DriftTracking;
}

const LINE = /^([a-z0-9][a-z0-9-]*)(?:\s+until\s+(\d{4}-\d{2}-\d{2}))?$/;

/** Reads `path` against the ledger's entry ids; `today` is YYYY-MM-DD (UTC). */
export function readAllowedDrift(
  path: string,
  ledgerIds: readonly string[],
  today: string,
): Result<AllowedDrift, ContractTestsError> {
  const refuse = (message: string, context: Record<string, unknown> = {}) => ({
    ok: false as const,
    error: new ContractTestsError('allow_list', `--allow-drift ${path}: ${message}`, { context: { path, ...context } }),
  });
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return refuse(`cannot read it (${error instanceof Error ? error.message : String(error)})`);
  }
  const known = new Set(ledgerIds);
  const ids = new Set<string>();
  const expired: Array<{ id: string; until: string }> = [];
  const problems: string[] = [];
  const unknown: string[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') continue;
    const match = LINE.exec(line);
    if (!match) {
      problems.push(`line ${index + 1} is not "<entry id>" or "<entry id> until YYYY-MM-DD"`);
      continue;
    }
    const [, id, until] = match as unknown as [string, string, string | undefined];
    if (!known.has(id)) {
      unknown.push(id);
      problems.push(`line ${index + 1}: "${id}" is no entry of the drift ledger`);
      continue;
    }
    if (until !== undefined && Number.isNaN(Date.parse(`${until}T00:00:00Z`))) {
      problems.push(`line ${index + 1}: ${until} is not a date`);
      continue;
    }
    // The allowance holds through its last day.
    if (until !== undefined && until < today) expired.push({ id, until });
    else ids.add(id);
  }
  if (problems.length > 0)
    return refuse(
      `${problems.join('; ')} (the ledger's entries are listed in drift.md and at the docs' "Known differences")`,
      {
        unknown,
      },
    );
  return { ok: true, value: { ids, expired } };
}

/**
 * When an allowed entry was last seen on a tenant. Carried from one run's report to the next (the
 * report in --report-dir), so "not seen for N days" needs no file kept by hand.
 */
export interface AllowedEntrySighting {
  readonly id: string;
  /** The last day (YYYY-MM-DD, UTC) a tenant showed its drift; absent: not once since `trackedSince`. */
  readonly lastSeen?: string;
  /** The day a run first tracked it: the count starts there for an entry never seen. */
  readonly trackedSince: string;
}

/** What --not-seen-days asks of a run: the number of days, and the sightings of the previous report. */
export interface DriftTracking {
  readonly days: number;
  readonly previous: readonly AllowedEntrySighting[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The sightings in the previous run's report at `path`: none when there is no report yet (the first
 * run) or it was written without --not-seen-days; a file that is not a report of this suite is
 * refused, never read as "never seen" (that would restart every count).
 */
export function readPreviousSightings(path: string): Result<AllowedEntrySighting[], ContractTestsError> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { ok: true, value: [] };
    return refusePrevious(path, `cannot read it (${error instanceof Error ? error.message : String(error)})`);
  }
  let sightings: unknown;
  try {
    const report = JSON.parse(text) as { allowedDrift?: { sightings?: unknown } } | null;
    if (typeof report !== 'object' || report === null || Array.isArray(report)) throw new Error('not an object');
    sightings = report.allowedDrift?.sightings ?? [];
  } catch {
    return refusePrevious(path, 'it is not JSON');
  }
  const valid =
    Array.isArray(sightings) &&
    sightings.every(
      (s: Partial<AllowedEntrySighting> | null) =>
        typeof s?.id === 'string' &&
        typeof s.trackedSince === 'string' &&
        DAY.test(s.trackedSince) &&
        (s.lastSeen === undefined || (typeof s.lastSeen === 'string' && DAY.test(s.lastSeen))),
    );
  if (!valid) return refusePrevious(path, 'its allowedDrift.sightings are not "{ id, lastSeen?, trackedSince }" dates');
  return { ok: true, value: sightings as AllowedEntrySighting[] };
}

function refusePrevious(path: string, problem: string) {
  return {
    ok: false as const,
    error: new ContractTestsError(
      'allow_list',
      `--not-seen-days reads the previous run's report ${path} to know when each allowed entry was last seen, but ${problem}: move it away (the counts start again) or choose another --report-dir`,
      { context: { path } },
    ),
  };
}

/** Each listed entry's sighting after this run: `seenToday` (on a tenant) moves `lastSeen` to `today`. */
export function sightingsAfter(
  listed: readonly string[],
  previous: readonly AllowedEntrySighting[],
  seenToday: ReadonlySet<string>,
  today: string,
): AllowedEntrySighting[] {
  const before = new Map(previous.map((s) => [s.id, s]));
  return listed.map((id) => {
    const trackedSince = before.get(id)?.trackedSince ?? today;
    const lastSeen = seenToday.has(id) ? today : before.get(id)?.lastSeen;
    return { id, ...(lastSeen ? { lastSeen } : {}), trackedSince };
  });
}

/** Whole days from one YYYY-MM-DD to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
