// The drift of the service's error statuses, as module text from the drift ledger
// (spec/dist/drift.json): what the client's error messages say about known drift is the ledger's
// own words, not a copy kept by hand.

/**
 * One row per `status` match of the ledger whose received statuses include an error (>= 400): an
 * error that may mean something else than the contract says. In the ledger's order.
 */
export function statusDriftRows(ledger) {
  const rows = [];
  for (const entry of ledger.entries ?? [])
    for (const match of entry.match ?? [])
      if (match.kind === 'status' && match.received.some((status) => status >= 400))
        rows.push({
          id: entry.id,
          operationId: match.operationId,
          expected: match.expected,
          received: match.received,
          advice: entry.evidence.integratorAdvice,
        });
  return rows;
}

export function driftModule(rows) {
  return `
import type { OPERATIONS } from './operations.js';

/** An error status the service answers where the contract states another (a \`status\` match of the drift ledger). */
export interface StatusDrift {
  /** The ledger entry's id (spec/drift.yaml). */
  readonly id: string;
  readonly operationId: keyof typeof OPERATIONS;
  /** The statuses the contract states in that situation. */
  readonly expected: readonly number[];
  /** The statuses the service answers instead. */
  readonly received: readonly number[];
  /** The ledger's advice to integrators: what to do about it. */
  readonly advice: string;
}

/** The known drift of error statuses, from the drift ledger, in its order. */
export const STATUS_DRIFT: readonly StatusDrift[] = [
${rows.map((row) => `  ${JSON.stringify(row)},`).join('\n')}
];
`;
}
