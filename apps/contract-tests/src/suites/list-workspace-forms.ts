// listWorkspaceForms: every documented status on the mock; on live targets the happy path, 401,
// 403, 404 and a per_page above 100 (read as 100, never refused).
import { OPERATIONS } from '@forms-api/types';
import { documentedStatusChecks, liveBasicChecks, prismOwnBehaviour, UNKNOWN_ID, type Send } from './common.js';
import type { OperationSuite } from './types.js';

const operationId = 'listWorkspaceForms';

export const send: Send<typeof operationId> = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).GET(OPERATIONS[operationId].path, {
      params: { path: { workspaceId: ctx.target.ids.workspaceId, ...o.path }, ...(o.query ? { query: o.query } : {}) },
    }),
  );

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({ operationId, send, unknown: { request: { path: { workspaceId: UNKNOWN_ID } } } }),
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
};
