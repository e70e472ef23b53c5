// What a run exercised of the spec, per target: each operation called or not, its documented
// response codes, parameters and top-level JSON body properties seen or missing, and its
// exchanges counted by answer (accepted 2xx, refused 4xx/5xx). The items and totals follow the
// shape `redocly drift --coverage-output` writes; everything in it comes from the spec or is a count.
import type { Exchange } from '../model.js';
import {
  decodedSegment,
  operationsOf,
  responseSchemas,
  topLevelProperties,
  type SpecOperation,
} from '../operations.js';
import { paginatedOperations } from '../page-invariants.js';

/** One thing the spec documents, as Redocly's coverage report names it. */
export type CoverageItem =
  | { readonly kind: 'operation' }
  | { readonly kind: 'parameter'; readonly name: string; readonly in: string }
  | { readonly kind: 'response'; readonly status: string }
  | {
      readonly kind: 'property';
      readonly target: 'request' | 'response';
      readonly status?: string;
      readonly path: string;
    };

export interface CoverageCount {
  readonly covered: number;
  readonly total: number;
}

/** Exchanges by answer: 2xx accepted, 4xx and 5xx refused, any other status, and no answer at all. */
export interface ExchangeCounts {
  readonly accepted: number;
  readonly refused: number;
  readonly other: number;
  readonly unanswered: number;
}

export interface OperationCoverage {
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
  readonly exchanges: ExchangeCounts;
  readonly missing: CoverageItem[];
  readonly covered: CoverageItem[];
  /** Each invariant that applies to the operation's answers, by name: how many answers it judged. */
  readonly invariants: Readonly<Record<string, number>>;
}

/**
 * The invariants every answer of an operation is judged by (apart from what each check asserts):
 * each applies to the operations `appliesTo` picks from the spec.
 */
export const ANSWER_INVARIANTS = {
  schema: { name: 'answer matches its schema', appliesTo: (_op: SpecOperation) => true },
  page: {
    name: 'page agrees with its meta and links',
    appliesTo: (op: SpecOperation, paginated: ReadonlySet<string>) => paginated.has(op.operationId),
  },
  rows: { name: 'rows belong to the parent in the path', appliesTo: (op: SpecOperation) => !!op.rowIdentifying },
  order: { name: 'rows in the order the spec states', appliesTo: (op: SpecOperation) => !!op.rowOrder },
} as const;
export type AnswerInvariant = keyof typeof ANSWER_INVARIANTS;

export interface CoverageTotals {
  readonly operations: CoverageCount;
  readonly parameters: CoverageCount;
  readonly properties: CoverageCount;
  readonly responses: CoverageCount;
}

export interface TargetCoverage {
  readonly target: string;
  /** Every exchange sent to the target; `matched`: those whose method and path are an operation of the spec. */
  readonly exchanges: ExchangeCounts & { readonly total: number; readonly matched: number };
  readonly totals: CoverageTotals;
  readonly operations: OperationCoverage[];
}

/** The contents of `coverage.json`. */
export interface CoverageReport {
  readonly version: 1;
  /** Properties are the top-level ones of JSON bodies; nested ones are not counted. */
  readonly propertyDepth: 'top-level';
  readonly targets: TargetCoverage[];
}

/** Collects the exchanges a run sends to one target; `summary()` says what of the spec they covered. */
export interface CoverageCollector {
  record(exchange: Exchange): void;
  /** An answer of `operationId` was judged by `invariant`. */
  judged(operationId: string, invariant: AnswerInvariant): void;
  summary(): TargetCoverage;
}

interface Entry {
  readonly item: CoverageItem;
  covered: boolean;
}

interface OperationState {
  readonly op: SpecOperation;
  readonly segments: readonly string[];
  readonly entries: Map<string, Entry>;
  readonly exchanges: { accepted: number; refused: number; other: number; unanswered: number };
  readonly invariants: Map<AnswerInvariant, number>;
}

function keyOf(item: CoverageItem): string {
  switch (item.kind) {
    case 'operation':
      return 'operation';
    case 'parameter':
      return `parameter:${item.in}:${item.name}`;
    case 'response':
      return `response:${item.status}`;
    case 'property':
      return `property:${item.target}:${item.status ?? ''}:${item.path}`;
  }
}

function stateOf(bundle: Record<string, unknown>, op: SpecOperation, paginated: ReadonlySet<string>): OperationState {
  const entries = new Map<string, Entry>();
  const add = (item: CoverageItem): void => {
    if (!entries.has(keyOf(item))) entries.set(keyOf(item), { item, covered: false });
  };
  add({ kind: 'operation' });
  // Cookies are not something the suite sends; path, query and header parameters are.
  for (const p of op.parameters) if (p.in !== 'cookie') add({ kind: 'parameter', name: p.name, in: p.in });
  if (op.jsonBody)
    for (const name of topLevelProperties(bundle, op.jsonBody.schema))
      add({ kind: 'property', target: 'request', path: name });
  const schemas = responseSchemas(bundle, op);
  for (const status of op.statuses) {
    add({ kind: 'response', status: String(status) });
    for (const name of topLevelProperties(bundle, schemas.get(status)))
      add({ kind: 'property', target: 'response', status: String(status), path: name });
  }
  return {
    op,
    segments: op.path.split('/').filter(Boolean),
    entries,
    exchanges: { accepted: 0, refused: 0, other: 0, unanswered: 0 },
    invariants: new Map(
      (Object.keys(ANSWER_INVARIANTS) as AnswerInvariant[])
        .filter((key) => ANSWER_INVARIANTS[key].appliesTo(op, paginated))
        .map((key) => [key, 0]),
    ),
  };
}

const isTemplate = (segment: string): boolean => /^\{[^}]+\}$/.test(segment);

/** The keys of a JSON object body; nothing for any other body (or one that is not JSON). */
function bodyKeys(body: string | undefined): string[] {
  if (!body) return [];
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}

function answerOf(exchange: Exchange): keyof ExchangeCounts {
  const { status } = exchange;
  if (status === undefined) return 'unanswered';
  if (status >= 200 && status < 300) return 'accepted';
  if (status >= 400 && status < 600) return 'refused';
  return 'other';
}

/**
 * A collector for the target `name` at `baseUrl`: an exchange belongs to the operation whose method
 * and path template match its URL below the base URL (literal segments win over templated ones, so
 * `/forms/mine` is not taken for `/forms/{form}`).
 */
export function createCoverageCollector(
  name: string,
  bundle: Record<string, unknown>,
  baseUrl: string,
): CoverageCollector {
  const operations = operationsOf(bundle);
  const paginated = paginatedOperations(bundle, operations);
  const states = [...operations.values()].map((op) => stateOf(bundle, op, paginated));
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const seen = { total: 0, matched: 0, accepted: 0, refused: 0, other: 0, unanswered: 0 };

  const match = (exchange: Exchange): { state: OperationState; url: URL } | undefined => {
    let url: URL;
    try {
      url = new URL(exchange.url);
    } catch {
      return undefined;
    }
    if (url.origin !== base.origin || !url.pathname.startsWith(basePath)) return undefined;
    const segments = url.pathname.slice(basePath.length).split('/').filter(Boolean).map(decodedSegment);
    let best: { state: OperationState; literals: number } | undefined;
    for (const state of states) {
      if (state.op.method !== exchange.method.toUpperCase() || state.segments.length !== segments.length) continue;
      if (!state.segments.every((s, i) => isTemplate(s) || s === segments[i])) continue;
      const literals = state.segments.filter((s) => !isTemplate(s)).length;
      if (!best || literals > best.literals) best = { state, literals };
    }
    return best ? { state: best.state, url } : undefined;
  };

  return {
    record(exchange) {
      seen.total++;
      const answer = answerOf(exchange);
      seen[answer]++;
      const found = match(exchange);
      if (!found) return;
      seen.matched++;
      const { state, url } = found;
      state.exchanges[answer]++;
      const mark = (item: CoverageItem): void => {
        const entry = state.entries.get(keyOf(item));
        if (entry) entry.covered = true;
      };
      mark({ kind: 'operation' });
      const headers = new Set(Object.keys(exchange.requestHeaders).map((h) => h.toLowerCase()));
      const queryKeys = [...url.searchParams.keys()];
      for (const p of state.op.parameters) {
        const sent =
          p.in === 'path' ||
          (p.in === 'query' && queryKeys.some((k) => k === p.name || k.startsWith(`${p.name}[`))) ||
          (p.in === 'header' && headers.has(p.name.toLowerCase()));
        if (sent) mark({ kind: 'parameter', name: p.name, in: p.in });
      }
      for (const key of bodyKeys(exchange.requestBody)) mark({ kind: 'property', target: 'request', path: key });
      if (exchange.status === undefined) return;
      const status = String(exchange.status);
      mark({ kind: 'response', status });
      for (const key of bodyKeys(exchange.responseBody))
        mark({ kind: 'property', target: 'response', status, path: key });
    },
    judged(operationId, invariant) {
      const invariants = states.find((s) => s.op.operationId === operationId)?.invariants;
      if (invariants?.has(invariant)) invariants.set(invariant, invariants.get(invariant)! + 1);
    },
    summary() {
      const count = (kind: CoverageItem['kind']): CoverageCount => {
        const entries = states.flatMap((s) => [...s.entries.values()]).filter((e) => e.item.kind === kind);
        return { covered: entries.filter((e) => e.covered).length, total: entries.length };
      };
      return {
        target: name,
        exchanges: { ...seen },
        totals: {
          operations: count('operation'),
          parameters: count('parameter'),
          properties: count('property'),
          responses: count('response'),
        },
        operations: states.map((s) => ({
          method: s.op.method,
          path: s.op.path,
          operationId: s.op.operationId,
          exchanges: { ...s.exchanges },
          missing: [...s.entries.values()].filter((e) => !e.covered).map((e) => e.item),
          covered: [...s.entries.values()].filter((e) => e.covered).map((e) => e.item),
          invariants: Object.fromEntries([...s.invariants].map(([key, count]) => [ANSWER_INVARIANTS[key].name, count])),
        })),
      };
    },
  };
}

export function coverageReport(targets: readonly TargetCoverage[]): CoverageReport {
  return { version: 1, propertyDepth: 'top-level', targets: [...targets] };
}

const ratio = (c: CoverageCount): string => `${c.covered}/${c.total}`;

/** One line of totals for a target, for the run's summary. */
export function coverageLine(c: TargetCoverage): string {
  const t = c.totals;
  const e = c.exchanges;
  return (
    `${c.target}: operations ${ratio(t.operations)}, response codes ${ratio(t.responses)}, parameters ${ratio(t.parameters)}, ` +
    `schema properties ${ratio(t.properties)}; ${e.total} exchanges (${e.accepted} accepted, ${e.refused} refused` +
    `${e.other ? `, ${e.other} other` : ''}${e.unanswered ? `, ${e.unanswered} unanswered` : ''}` +
    `${e.total > e.matched ? `; ${e.total - e.matched} outside the spec's operations` : ''})`
  );
}

/**
 * Per operation the target answered: how many answers each invariant that applies to it judged
 * (0 shows one that applies but judged none), and how many of the operation's checks ran.
 */
export function invariantLines(
  c: TargetCoverage,
  checksOf: (operationId: string) => { ran: number; of: number },
): string[] {
  return c.operations
    .filter((op) => Object.values(op.exchanges).some((n) => n > 0))
    .map((op) => {
      const judged = Object.entries(op.invariants).map(([name, n]) => `${name} ${n}`);
      const run = checksOf(op.operationId);
      return `${c.target} ${op.operationId}: ${judged.join(', ')}; checks ${run.ran} of ${run.of} ran`;
    });
}
