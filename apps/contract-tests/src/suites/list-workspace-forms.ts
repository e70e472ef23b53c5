// listWorkspaceForms beyond the derived checks: a per_page above 100 (read as 100, never refused).
import { handSuite, operationSender } from './common.js';

const operationId = 'listWorkspaceForms';
const send = operationSender(operationId);

export const suite = handSuite({
  operationId,
  checks: [
    {
      name: 'per_page above 100: a page of at most 100',
      operationId,
      on: 'live',
      async run(ctx) {
        const exchange = await send(ctx, { query: { per_page: 101 } });
        const body = ctx.expectResponse(exchange, { operationId, status: 200 }) as
          { data?: unknown[]; meta?: { per_page?: number } } | undefined;
        const perPage = body?.meta?.per_page;
        if (exchange.status === 200 && ((body?.data?.length ?? 0) > 100 || (perPage !== undefined && perPage > 100))) {
          ctx.observe('page-size-over-maximum', operationId, 'per_page=101 answered more than 100 per page', {
            expected: 'at most 100 forms, meta.per_page ≤ 100',
            received: `${body?.data?.length ?? 0} forms, meta.per_page ${perPage}`,
            exchange,
          });
        }
      },
    },
  ],
});
