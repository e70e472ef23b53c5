// Matches failures against the known-drift ledger (spec/drift.yaml, shipped as drift.json): a
// failure every part of which an entry explains is known drift; anything else is a real failure.
import type { ErrorObject, Failure } from './model.js';

export type DriftMatch =
  | { kind: 'schema'; operationId: string; instancePath: string; keyword: string; property?: string }
  | { kind: 'status'; operationId: string; expected: number[]; received: number[]; when: string }
  | { kind: 'check'; operationId: string; check: string };

export interface DriftEntry {
  id: string;
  title: string;
  operationId?: string;
  contract: string;
  observed: string;
  severity: 'breaking' | 'additive' | 'behavioural';
  match: DriftMatch[];
}

export interface DriftLedger {
  version: 1;
  entries: DriftEntry[];
}

export interface DriftVerdict {
  /** True when every part of the failure is explained by ledger entries. */
  readonly known: boolean;
  /** Entries that explain (part of) the failure. */
  readonly entryIds: string[];
  /** For schema failures: the errors no entry explains. */
  readonly unexplained: ErrorObject[];
}

const normalise = (text: string): string => text.trim().toLowerCase().replace(/\s+/g, ' ');

/** The property a `required` / `additionalProperties` / `unevaluatedProperties` error is about. */
function errorProperty(error: ErrorObject): string | undefined {
  const p = error.params as Record<string, unknown>;
  const value = p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty ?? p.propertyName;
  return typeof value === 'string' ? value : undefined;
}

function schemaErrorMatches(m: Extract<DriftMatch, { kind: 'schema' }>, operationId: string, error: ErrorObject): boolean {
  if (m.operationId !== operationId) return false;
  // Anchor the keyword so `type` does not also match `unevaluatedProperties`' cousins by substring.
  if (!new RegExp(`^(?:${m.keyword})$`).test(error.keyword)) return false;
  if (!new RegExp(m.instancePath).test(error.instancePath)) return false;
  return m.property === undefined || m.property === errorProperty(error);
}

/**
 * Ajv reports a failed `oneOf`/`anyOf`/`if` both as the branch errors and as the combinator itself.
 * The combinator error carries no information of its own, so it is explained when the branch
 * errors under it are (otherwise one type drift in a `oneOf` could never be known drift).
 */
const COMBINATORS = new Set(['oneOf', 'anyOf', 'if', 'not']);

export function matchFailure(ledger: DriftLedger, failure: Failure): DriftVerdict {
  const none: DriftVerdict = { known: false, entryIds: [], unexplained: failure.schemaErrors ?? [] };
  switch (failure.kind) {
    case 'schema': {
      const operationId = failure.operationId;
      const errors = failure.schemaErrors ?? [];
      if (!operationId || errors.length === 0) return none;
      const ids = new Set<string>();
      const unexplained: ErrorObject[] = [];
      for (const error of errors) {
        const entry = ledger.entries.find((e) => e.match.some((m) => m.kind === 'schema' && schemaErrorMatches(m, operationId, error)));
        if (entry) ids.add(entry.id);
        else unexplained.push(error);
      }
      const residual = unexplained.filter(
        (e) => !(COMBINATORS.has(e.keyword) && ids.size > 0 && errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath) && !unexplained.includes(o))),
      );
      return { known: residual.length === 0 && ids.size > 0, entryIds: [...ids], unexplained: residual };
    }
    case 'status': {
      const { operationId, expectedStatus, receivedStatus, when } = failure;
      if (!operationId || !expectedStatus || receivedStatus === undefined) return none;
      const ids = ledger.entries
        .filter((e) =>
          e.match.some(
            (m) =>
              m.kind === 'status' &&
              m.operationId === operationId &&
              m.expected.some((s) => expectedStatus.includes(s)) &&
              m.received.includes(receivedStatus) &&
              // The situation must be the one the entry names: it tells entries with the same
              // statuses apart (per_page vs status enum), and keeps a generic check (a token
              // without forms-read answered 200) from being excused by a narrower entry.
              when !== undefined &&
              normalise(m.when) === normalise(when),
          ),
        )
        .map((e) => e.id);
      return { known: ids.length > 0, entryIds: ids, unexplained: [] };
    }
    case 'check': {
      const ids = ledger.entries
        .filter((e) => e.match.some((m) => m.kind === 'check' && m.check === failure.check && m.operationId === failure.operationId))
        .map((e) => e.id);
      return { known: ids.length > 0, entryIds: ids, unexplained: [] };
    }
    default:
      return none;
  }
}

/** Every check name the ledger refers to; the suite asserts it implements each of them. */
export function ledgerCheckNames(ledger: DriftLedger): string[] {
  return [...new Set(ledger.entries.flatMap((e) => e.match.flatMap((m) => (m.kind === 'check' ? [m.check] : []))))];
}
