// listWorkspaceForms: every documented status on the mock; on live targets the happy path, 401,
// 403, 404 and a per_page above 100 (422).
import { documentedStatusChecks, liveBasicChecks, prismOwnBehaviour, UNKNOWN_ID, type Send } from './common.js';
import type { OperationSuite } from './types.js';

const operationId = 'listWorkspaceForms';

export const send: Send = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).GET('/open/workspaces/{workspaceId}/forms', {
      params: { path: { workspaceId: ctx.target.ids.workspaceId, ...o.path } as never, query: o.query as never },
    }),
  );

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, ['200', '401', '403', '404', '422', '429', '500'], send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({ operationId, send, forbidden: { token: 'withoutFormsRead', variable: 'FORMS_API_TOKEN_WITHOUT_FORMS_READ' }, unknown: { workspaceId: UNKNOWN_ID } }),
    {
      name: 'per_page above 100: 422',
      operationId,
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { query: { per_page: 101 } }), { operationId, status: 422 });
      },
    },
  ],
};
