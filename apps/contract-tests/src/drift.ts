// Matches failures against the known-drift ledger (spec/drift.yaml, shipped as drift.json) by
// situation: the operation, what went wrong (schema errors at named places, a status, a named
// observation with the symptom it showed) and the situation it went wrong in (the token's
// abilities, the query, traits the check states). A failure every part of which an entry explains
// is known drift; anything else is a real failure, however close to an entry it looks.
import type { DriftEntry, DriftSituation, DriftSymptom } from '@forms-api/spec/drift';
import type { ErrorObject, Failure, Situation, Symptom } from './model.js';

/** What matching reads of a ledger: each entry's id and matches (tests build small ones). */
export interface MatchableLedger {
  readonly entries: ReadonlyArray<Pick<DriftEntry, 'id' | 'match'>>;
}

export interface DriftVerdict {
  /** True when every part of the failure is explained by ledger entries. */
  readonly known: boolean;
  /** Entries that explain (part of) the failure. */
  readonly entryIds: string[];
  /** For schema failures: the errors no entry explains. */
  readonly unexplained: ErrorObject[];
}

/** The property a `required` / `additionalProperties` / `unevaluatedProperties` error is about. */
function errorProperty(error: ErrorObject): string | undefined {
  const p = error.params as Record<string, unknown>;
  const value = p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty ?? p.propertyName;
  return typeof value === 'string' ? value : undefined;
}

/** Keywords whose error is about one named key: a match of them names the keys it explains. */
const KEYED_KEYWORDS = new Set([
  'required',
  'additionalProperties',
  'unevaluatedProperties',
  'dependentRequired',
  'propertyNames',
]);

/**
 * Ajv reports a failed `oneOf`/`anyOf`/`if` both as the branch errors and as the combinator itself.
 * The combinator error carries no information of its own, so it is explained when the branch
 * errors under it are (otherwise one type drift in a `oneOf` could never be known drift).
 */
const COMBINATORS = new Set(['oneOf', 'anyOf', 'if', 'not']);

type SituationTest = (situation: Situation | undefined) => boolean;

/** A `when` compiled to a test; an absent part holds always, a part the failure cannot show never does. */
function compileSituation(when: DriftSituation | undefined): SituationTest {
  if (!when) return () => true;
  const includes = when.abilities?.includes ?? [];
  const excludes = when.abilities?.excludes ?? [];
  const query = Object.entries(when.query ?? {}).map(([name, pattern]) => [name, new RegExp(pattern, 'u')] as const);
  const traits = when.traits ?? [];
  return (situation) => {
    if (!situation) return false;
    if (when.abilities) {
      // A token the suite does not know (or no token) cannot show that it holds or lacks an ability.
      const held = situation.abilities;
      if (!held) return false;
      if (!includes.every((a) => held.includes(a)) || excludes.some((a) => held.includes(a))) return false;
    }
    for (const [name, pattern] of query) {
      const value = situation.query[name];
      if (value === undefined || !pattern.test(value)) return false;
    }
    return traits.every((t) => situation.traits.includes(t));
  };
}

type SymptomTest = (symptom: Symptom | undefined) => boolean;

/**
 * A `symptom` compiled to a test; an absent part holds always. A part given needs the failure to
 * show it, and every place and value the failure shows must fit: a defect that shows the same
 * observation somewhere else, or with something else there, is not the drift the entry describes.
 */
function compileSymptom(symptom: DriftSymptom | undefined): SymptomTest {
  if (!symptom) return () => true;
  const at = symptom.at === undefined ? undefined : new RegExp(symptom.at, 'u');
  const received = symptom.received === undefined ? undefined : new RegExp(symptom.received, 'u');
  const all = (pattern: RegExp | undefined, shown: readonly string[] | undefined) =>
    !pattern || (shown !== undefined && shown.length > 0 && shown.every((s) => pattern.test(s)));
  return (seen) => {
    if (!seen) return false;
    if (symptom.status && (seen.status === undefined || !symptom.status.includes(seen.status))) return false;
    return all(at, seen.at) && all(received, seen.received);
  };
}

interface CompiledSchemaMatch {
  readonly entryId: string;
  // Anchored, so `type` does not also match `unevaluatedProperties`' cousins by substring.
  readonly keyword: RegExp;
  readonly instancePath: RegExp;
  readonly properties?: ReadonlySet<string>;
  readonly when: SituationTest;
}

interface CompiledStatusMatch {
  readonly entryId: string;
  readonly expected: readonly number[];
  readonly received: readonly number[];
  readonly when: SituationTest;
}

interface CompiledBehaviourMatch {
  readonly entryId: string;
  readonly observation: string;
  readonly symptom: SymptomTest;
  readonly when: SituationTest;
}

/** The ledger prepared for matching: patterns compiled and grouped by operation. */
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

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Indexes a ledger. Matching is then linear in a failure's errors (each is tested against its
 * operation's few patterns, in ledger order, so the first entry that explains it wins).
 */
export function createLedgerIndex(ledger: MatchableLedger): LedgerIndex {
  const schemaMatches = new Map<string, CompiledSchemaMatch[]>();
  const statusMatches = new Map<string, CompiledStatusMatch[]>();
  const behaviourMatches = new Map<string, CompiledBehaviourMatch[]>();
  for (const entry of ledger.entries) {
    for (const m of entry.match) {
      const when = compileSituation(m.when);
      switch (m.kind) {
        case 'schema':
          push(schemaMatches, m.operationId, {
            entryId: entry.id,
            keyword: new RegExp(`^(?:${m.keyword})$`),
            instancePath: new RegExp(m.instancePath),
            ...(m.properties ? { properties: new Set(m.properties) } : {}),
            when,
          });
          break;
        case 'status':
          push(statusMatches, m.operationId, { entryId: entry.id, expected: m.expected, received: m.received, when });
          break;
        case 'behaviour':
          push(behaviourMatches, m.operationId, {
            entryId: entry.id,
            observation: m.observation,
            symptom: compileSymptom(m.symptom),
            when,
          });
          break;
      }
    }
  }
  // A keyed error (a missing or extra key) is explained only by a match that names its key: a
  // match as narrow as the drift, so losing another key is new drift.
  const explains = (m: CompiledSchemaMatch, error: ErrorObject): boolean => {
    if (!m.keyword.test(error.keyword) || !m.instancePath.test(error.instancePath)) return false;
    if (!KEYED_KEYWORDS.has(error.keyword)) return true;
    const property = errorProperty(error);
    return m.properties !== undefined && property !== undefined && m.properties.has(property);
  };
  const known = (ids: Iterable<string>): DriftVerdict => {
    const entryIds = [...new Set(ids)];
    return { known: entryIds.length > 0, entryIds, unexplained: [] };
  };

  return {
    match(failure) {
      const none: DriftVerdict = { known: false, entryIds: [], unexplained: failure.schemaErrors ?? [] };
      const operationId = failure.operationId;
      if (!operationId) return none;
      switch (failure.kind) {
        case 'schema': {
          const errors = failure.schemaErrors ?? [];
          if (errors.length === 0) return none;
          const matches = (schemaMatches.get(operationId) ?? []).filter((m) => m.when(failure.situation));
          const ids = new Set<string>();
          const unexplained: ErrorObject[] = [];
          const explainedPaths: string[] = [];
          for (const error of errors) {
            const entryId = matches.find((m) => explains(m, error))?.entryId;
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
          const residual = unexplained.filter(
            (e) => !(COMBINATORS.has(e.keyword) && hasPathWithPrefix(explainedPaths, e.instancePath)),
          );
          return { known: residual.length === 0, entryIds: [...ids], unexplained: residual };
        }
        case 'status': {
          const { expectedStatus, receivedStatus } = failure;
          if (!expectedStatus || receivedStatus === undefined) return none;
          return known(
            (statusMatches.get(operationId) ?? [])
              .filter(
                (m) =>
                  m.expected.some((s) => expectedStatus.includes(s)) &&
                  m.received.includes(receivedStatus) &&
                  m.when(failure.situation),
              )
              .map((m) => m.entryId),
          );
        }
        case 'behaviour':
          return known(
            (behaviourMatches.get(operationId) ?? [])
              .filter(
                (m) => m.observation === failure.observation && m.symptom(failure.symptom) && m.when(failure.situation),
              )
              .map((m) => m.entryId),
          );
        default:
          return none;
      }
    },
  };
}

const indexes = new WeakMap<MatchableLedger, LedgerIndex>();

/** Matches one failure against a ledger (the ledger's index is built once and kept). */
export function matchFailure(ledger: MatchableLedger, failure: Failure): DriftVerdict {
  let index = indexes.get(ledger);
  if (!index) {
    index = createLedgerIndex(ledger);
    indexes.set(ledger, index);
  }
  return index.match(failure);
}
