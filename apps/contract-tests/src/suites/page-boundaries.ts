// The pages at the bounds a list reports of itself, for every operation that takes `page`: the
// last page it names and the one after it. Each answer is held to the page invariants like every
// other (its rows, meta and links agree with the page asked for), so a list that clamps a page
// past its end, or counts the last page short, is caught however rarely a generated case would ask
// for one; and every page of the same list must report the same total.
import type { CheckContext } from '../check-context.js';
import { identifiedParameters, type SpecOperation } from '../operations.js';
import { targetIdOf, targetPath, type Send } from './common.js';
import type { Check } from './types.js';

interface PageMeta {
  readonly total?: unknown;
  readonly last_page?: unknown;
  readonly per_page?: unknown;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function pageBoundaryChecks(op: SpecOperation, send: Send): Check[] {
  if (op.method !== 'GET' || !op.parameters.some((p) => p.in === 'query' && p.name === 'page')) return [];
  const { operationId } = op;
  return [
    {
      name: 'the last page it reports holds the rest, the page after it none, each with the same total',
      operationId,
      on: 'live',
      async run(ctx: CheckContext) {
        const missing = identifiedParameters(op).filter((p) => targetIdOf(ctx, p.identifies!) === undefined);
        if (missing.length > 0) return ctx.skip(`needs the target's ${missing.map((p) => p.identifies).join(', ')}`);
        const path = targetPath(ctx, op);
        const ask = async (page: number) => {
          const exchange = await send(ctx, { path, query: { page } as never });
          const body = ctx.expectResponse(exchange, { operationId, status: 200 }) as { meta?: PageMeta } | undefined;
          return { exchange, meta: body?.meta };
        };
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
