// The --allow-drift file: the ledger entries whose known drift --strict still accepts, each until
// an optional date (then it fails again and is looked at anew). One entry id per line, `#`
// comments; an id the ledger does not have, a malformed line or date is refused, never skipped.
import { readFileSync } from 'node:fs';
import type { Result } from '@forms-api/types';
import { ContractTestsError } from './errors.js';

export interface AllowedDrift {
  /** Entries whose known drift does not fail a --strict run today. */
  readonly ids: ReadonlySet<string>;
  /** Entries listed with a date that has passed: --strict fails on them again. */
  readonly expired: ReadonlyArray<{ readonly id: string; readonly until: string }>;
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
