// The pages at the bounds a list reports of itself, for every operation that takes `page`: the
// last page it names and the one after it. Each answer is held to the page invariants like every
// other (its rows, meta and links agree with the page asked for), so a list that clamps a page
// past its end, or counts the last page short, is caught however rarely a generated case would ask
// for one; and every page of the same list must report the same total.
import type { CheckContext } from '../check-context.js';
import { identifiedParameters, takesQuery, type SpecOperation } from '../operations.js';
import { listRows, orderValue } from '../page-invariants.js';
import { targetIdOf, targetPath, type Send } from './common.js';
import type { Check } from './types.js';

interface PageMeta {
  readonly total?: unknown;
  readonly last_page?: unknown;
  readonly per_page?: unknown;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * A reader of the pages of `op` on the target's own parent (a skip when the target names none):
 * each answer judged as every answer is, its rows and meta returned.
 */
function pageReader(ctx: CheckContext, op: SpecOperation, send: Send) {
  const missing = identifiedParameters(op).filter((p) => targetIdOf(ctx, p.identifies!) === undefined);
  if (missing.length > 0) return ctx.skip(`needs the target's ${missing.map((p) => p.identifies).join(', ')}`);
  const path = targetPath(ctx, op);
  return async (query: { page: number; per_page?: number }) => {
    const exchange = await send(ctx, { path, query: query as never });
    const body = ctx.expectResponse(exchange, { operationId: op.operationId, status: 200 }) as
      { data?: unknown[]; meta?: PageMeta } | undefined;
    return { exchange, meta: body?.meta, rows: listRows(body) };
  };
}

export function pageBoundaryChecks(op: SpecOperation, send: Send): Check[] {
  if (op.method !== 'GET' || !takesQuery(op, 'page')) return [];
  const { operationId } = op;
  return [
    {
      name: 'the last page it reports holds the rest, the page after it none, each with the same total',
      operationId,
      on: 'live',
      async run(ctx: CheckContext) {
        const read = pageReader(ctx, op, send);
        const ask = (page: number) => read({ page });
        const first = await ask(1);
        const { total, per_page: size, last_page: stated } = first.meta ?? {};
        if (!isCount(total) || !isCount(size) || size < 1)
          return ctx.skip('the first page carries no meta.total and meta.per_page to take bounds from');
        // The last page as the list states it, or as its total and page size make it.
        const last = isCount(stated) && stated >= 1 ? stated : Math.max(1, Math.ceil(total / size));
        // The page invariants judge each answer against the page asked for; here, the totals agree.
        for (const page of last > 1 ? [last, last + 1] : [last + 1]) {
          const { exchange, meta } = await ask(page);
          if (meta === undefined || meta.total === total) continue;
          ctx.observe(
            'page-total-differs',
            operationId,
            `page 1 reports total ${total}, page ${page} (of last_page ${last}) reports ${String(meta.total)}`,
            { expected: `total ${total} on every page`, received: `total ${String(meta.total)}`, exchange },
          );
          return;
        }
      },
    },
  ];
}

/**
 * The same rows whatever the page size, for every list that takes `page` and `per_page` and states
 * its order: the first rows read as one page of 100, and again as about three smaller pages. Rows
 * the order ties (equal sort values) may change places between two reads, so only a row whose sort
 * value no other row of the read shares is held to it: it must come exactly once in each.
 */
export function pageSizeChecks(op: SpecOperation, send: Send): Check[] {
  const order = op.rowOrder;
  if (op.method !== 'GET' || !order || !takesQuery(op, 'page') || !takesQuery(op, 'per_page')) return [];
  const { operationId } = op;
  const sortValue = (row: unknown) => JSON.stringify(orderValue(row, order.by));
  const idOf = (row: unknown) => JSON.stringify((row as { id?: unknown } | null)?.id);
  return [
    {
      name: 'the same rows whatever the page size',
      operationId,
      on: 'live',
      async run(ctx: CheckContext) {
        const reader = pageReader(ctx, op, send);
        const read = async (page: number, size: number) => {
          const { exchange, meta, rows } = await reader({ page, per_page: size });
          return { exchange, rows, total: meta?.total };
        };
        const whole = await read(1, 100);
        if (!whole.rows || !isCount(whole.total)) return ctx.skip('the list answered no rows and total to compare');
        const count = whole.rows.length;
        if (count < 2) return ctx.skip(`the list holds ${count} row(s): nothing to split into pages`);
        const size = Math.ceil(count / 3);
        const split: unknown[] = [];
        let last = whole;
        for (let page = 1; split.length < count; page++) {
          last = await read(page, size);
          if (!last.rows || last.rows.length === 0) break;
          split.push(...last.rows);
        }
        if (last.total !== whole.total) return ctx.skip('the list changed while it was read: rows are arriving');
        const seen = split.slice(0, count);
        // A value the read's last row shares may tie with a row past it, which a read may put first.
        const boundary = whole.total > count ? sortValue(whole.rows.at(-1)) : undefined;
        const shared = new Map<string, number>();
        for (const row of whole.rows) shared.set(sortValue(row), (shared.get(sortValue(row)) ?? 0) + 1);
        const wrong: string[] = [];
        for (const row of whole.rows) {
          const value = sortValue(row);
          if (shared.get(value) !== 1 || value === boundary) continue;
          const times = seen.filter((other) => idOf(other) === idOf(row)).length;
          if (times !== 1) wrong.push(`${idOf(row)} ${times === 0 ? 'missing' : `${times} times`}`);
        }
        if (wrong.length === 0) return;
        ctx.observe(
          'rows-differ-by-page-size',
          operationId,
          `the first ${count} rows as one page of 100 and as pages of ${size} differ: ${wrong.slice(0, 5).join(', ')}${wrong.length > 5 ? ` (and ${wrong.length - 5} more)` : ''}`,
          {
            expected: `each of the ${count} rows once, whatever the page size`,
            received: wrong[0]!,
            exchange: last.exchange,
          },
        );
      },
    },
  ];
}
