// Generated query parameters on every list a target can address: valid, boundary, invalid and
// hostile values, each answered as the schema says, and on every page the list's own promises (its
// size, its status filter) hold.
import fc from 'fast-check';
import type { SpecOperation } from '@forms-api/spec/operations';
import type { CheckContext } from '../check-context.js';
import type { Exchange } from '../model.js';
import type { Explorer } from './explorer.js';
import { isJson, missingIds, pathOf, request, targetIds, type Query } from './requests.js';
import type { LabelledValue, Schema, SchemaArbitraries } from './schema-arbitrary.js';
import { asCheck, type ExploreCheck } from './search.js';

/**
 * Query parameters of every list a target can address: valid, boundary, invalid and hostile values.
 */
export function queryChecks(explorer: Explorer): ExploreCheck[] {
  const { spec, arbitraries, secured, explore } = explorer;
  const checks: ExploreCheck[] = [];
  const lists = secured.filter(
    (op) => op.method === 'GET' && isJson(op.successMediaTypes[0]) && op.parameters.some((p) => p.in === 'query'),
  );
  for (const op of lists) {
    const parameters = op.parameters.filter((p) => p.in === 'query');
    const query = fc.record(
      Object.fromEntries(
        parameters.map((p) => [
          p.name,
          fc.option(valueOf(arbitraries, p.schema as Schema), { nil: undefined, freq: 3 }),
        ]),
      ),
      { requiredKeys: [] },
    ) as fc.Arbitrary<Query>;
    checks.push({
      name: 'explore: generated query parameters',
      operationId: asCheck(op),
      on: 'live',
      run: async (ctx) => {
        const ids = targetIds(ctx.target);
        const path = pathOf(op, ids);
        if (!path) return ctx.skip(`needs ${missingIds(op, ids)}`);
        await explore(
          ctx,
          `${op.operationId} query`,
          query,
          async (scratch, q) => {
            const sent = clean(q);
            const exchange = await request(scratch, op, { path, query: serialised(sent) });
            const valid = parameters.every(
              (p) =>
                !(p.name in sent) ||
                spec.validator.validateSchema(`${op.operationId} ${p.name}`, p.schema as Schema, sent[p.name]).valid,
            );
            judgeList(scratch, op, exchange, sent, valid);
          },
          1,
          (q) => JSON.stringify(clean(q)),
          // Every value an enumerated parameter takes is tried first, alone, whatever the seed (the
          // coverage phase Schemathesis runs before random cases): a filter is never left to chance.
          parameters.flatMap((p) => enumOf(p.schema as Schema).map((value) => ({ [p.name]: value }) as Query)),
        );
      },
    });
  }
  return checks;
}

/** A parameter's value: valid most often, else an edge, a forbidden or a hostile one. */
function valueOf(arbitraries: SchemaArbitraries, schema: Schema): fc.Arbitrary<unknown> {
  const pick = (values: LabelledValue[]) => (values.length > 0 ? [fc.constantFrom(...values.map((v) => v.value))] : []);
  return fc.oneof(
    { weight: 4, arbitrary: arbitraries.valid(schema) },
    ...pick(arbitraries.boundaries(schema)).map((arbitrary) => ({ weight: 2, arbitrary })),
    ...pick(arbitraries.invalid(schema)).map((arbitrary) => ({ weight: 2, arbitrary })),
    ...pick(arbitraries.hostile(schema)).map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}

/** The values an enumerated schema allows (none for any other). */
const enumOf = (schema: Schema): unknown[] =>
  typeof schema === 'object' && Array.isArray(schema.enum) ? schema.enum : [];
const clean = (q: Query): Query => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined));
/** Generated query values as a client would serialise them (arrays repeated, objects as JSON). */
const serialised = (query: Query): Query =>
  Object.fromEntries(
    Object.entries(query).map(([k, v]) => [
      k,
      v !== null && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : v,
    ]),
  );

/**
 * A list answer to generated query values: what the schema allows is answered 200 (never refused);
 * what it forbids is read or refused with a documented 4xx (the published contract reads page sizes
 * and filters leniently), never a 5xx; and on every 200 the list's promises hold: a page holds at
 * most the size asked for and never more than 100, a status filter lists only that status, and
 * rows with a creation time come newest first.
 */
function judgeList(ctx: CheckContext, op: SpecOperation, exchange: Exchange, query: Query, valid: boolean): void {
  const { operationId } = op;
  const refusals = op.statuses.filter((s) => s >= 400 && s < 500 && s !== 401 && s !== 403 && s !== 429);
  const body = ctx.expectResponse(exchange, { operationId, status: valid ? [200] : [200, ...refusals] }) as
    { data?: any[]; meta?: any } | undefined;
  if (exchange.status !== 200 || !body || !Array.isArray(body.data)) return;
  const perPage =
    typeof query.per_page === 'number' && Number.isInteger(query.per_page) && query.per_page >= 1
      ? Math.min(query.per_page, 100)
      : 100;
  if (body.data.length > perPage) {
    ctx.observe(
      'page-over-its-bound',
      operationId,
      `a page of ${body.data.length} rows for per_page=${String(query.per_page ?? '(default)')}`,
      { expected: `at most ${perPage}`, received: String(body.data.length), exchange },
    );
  }
  const meta = body.meta;
  if (meta && typeof meta.per_page === 'number' && meta.per_page > 100)
    ctx.observe('page-over-its-bound', operationId, `meta.per_page is ${meta.per_page}`, {
      expected: 'at most 100',
      received: String(meta.per_page),
      exchange,
    });
  if (query.status === 'completed' || query.status === 'partial') {
    const other = body.data.find((s) => s?.data?.status !== undefined && s.data.status !== query.status);
    if (other)
      ctx.observe(
        'filter-lets-other-status-through',
        operationId,
        `${other.id} has status ${other.data.status} under status=${String(query.status)}`,
        { exchange },
      );
  }
}
