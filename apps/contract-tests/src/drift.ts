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

/**
 * Ajv reports a failed `oneOf`/`anyOf`/`if` both as the branch errors and as the combinator itself.
 * The combinator error carries no information of its own, so it is explained when the branch
 * errors under it are (otherwise one type drift in a `oneOf` could never be known drift).
 */
const COMBINATORS = new Set(['oneOf', 'anyOf', 'if', 'not']);

/** A schema match of the ledger with its patterns compiled once. */
interface CompiledSchemaMatch {
  readonly entryId: string;
  // Anchored, so `type` does not also match `unevaluatedProperties`' cousins by substring.
  readonly keyword: RegExp;
  readonly instancePath: RegExp;
  readonly property?: string;
}

/** The ledger prepared for matching: schema matches compiled and grouped by operation. */
export interface LedgerIndex {
  match(failure: Failure): DriftVerdict;
}

/** Whether some path in `sorted` (ascending) starts with `prefix`: those sort right at or after it. */
function hasPathWithPrefix(sorted: readonly string[], prefix: string): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < prefix) low = mid + 1;
    else high = mid;
  }
  return low < sorted.length && sorted[low]!.startsWith(prefix);
}

/**
 * Indexes a ledger. Matching a schema failure is then linear in its errors (each is tested against
 * its operation's few patterns, in ledger order, so the first entry that explains it wins), where
 * the nested filter/some/includes it replaces was quadratic and worse.
 */
export function createLedgerIndex(ledger: DriftLedger): LedgerIndex {
  const schemaMatches = new Map<string, CompiledSchemaMatch[]>();
  for (const entry of ledger.entries) {
    for (const m of entry.match) {
      if (m.kind !== 'schema') continue;
      const list = schemaMatches.get(m.operationId) ?? [];
      list.push({ entryId: entry.id, keyword: new RegExp(`^(?:${m.keyword})$`), instancePath: new RegExp(m.instancePath), ...(m.property !== undefined ? { property: m.property } : {}) });
      schemaMatches.set(m.operationId, list);
    }
  }
  const explainingEntry = (matches: readonly CompiledSchemaMatch[], error: ErrorObject): string | undefined =>
    matches.find((m) => m.keyword.test(error.keyword) && m.instancePath.test(error.instancePath) && (m.property === undefined || m.property === errorProperty(error)))?.entryId;

  return {
    match(failure) {
      const none: DriftVerdict = { known: false, entryIds: [], unexplained: failure.schemaErrors ?? [] };
      switch (failure.kind) {
        case 'schema': {
          const operationId = failure.operationId;
          const errors = failure.schemaErrors ?? [];
          if (!operationId || errors.length === 0) return none;
          const matches = schemaMatches.get(operationId) ?? [];
          const ids = new Set<string>();
          const unexplained: ErrorObject[] = [];
          const explainedPaths: string[] = [];
          for (const error of errors) {
            const entryId = explainingEntry(matches, error);
            if (entryId !== undefined) {
              ids.add(entryId);
              explainedPaths.push(error.instancePath);
            } else {
              unexplained.push(error);
            }
          }
          if (ids.size === 0) return { known: false, entryIds: [], unexplained };
          explainedPaths.sort();
          // A combinator error is explained when an explained error sits at or under its path.
          const residual = unexplained.filter((e) => !(COMBINATORS.has(e.keyword) && hasPathWithPrefix(explainedPaths, e.instancePath)));
          return { known: residual.length === 0, entryIds: [...ids], unexplained: residual };
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
    },
  };
}

const indexes = new WeakMap<DriftLedger, LedgerIndex>();

/** Matches one failure against a ledger (the ledger's index is built once and kept). */
export function matchFailure(ledger: DriftLedger, failure: Failure): DriftVerdict {
  let index = indexes.get(ledger);
  if (!index) {
    index = createLedgerIndex(ledger);
    indexes.set(ledger, index);
  }
  return index.match(failure);
}

/** Every check name the ledger refers to; the suite asserts it implements each of them. */
export function ledgerCheckNames(ledger: DriftLedger): string[] {
  return [...new Set(ledger.entries.flatMap((e) => e.match.flatMap((m) => (m.kind === 'check' ? [m.check] : []))))];
}
