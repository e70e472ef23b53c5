// listWorkspaceForms: every documented status on the mock; on live targets the happy path, 401,
// 403, 404 and a per_page above 100 (422).
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
      name: 'per_page above 100: 422',
      operationId,
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { query: { per_page: 101 } }), { operationId, status: 422 });
      },
    },
  ],
};
