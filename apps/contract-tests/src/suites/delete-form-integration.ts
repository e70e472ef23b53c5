// deleteFormIntegration: every documented status on the mock; on live targets 401 and 404, and
// with --write the happy path and 403 on a temporary integration.
import { documentedStatusChecks, prismOwnBehaviour, UNKNOWN_ID, type Send } from './common.js';
import { createTemporaryIntegration, integrationBody } from './helpers.js';
import type { OperationSuite } from './types.js';

const operationId = 'deleteFormIntegration';

export const send: Send = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).DELETE('/open/forms/{form}/integrations/{integrationid}', {
      params: { path: { form: ctx.target.ids.formId, integrationid: ctx.target.ids.integrationId ?? UNKNOWN_ID, ...o.path } as never },
    }),
  );

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, ['200', '401', '403', '404', '429', '500'], send),
    ...prismOwnBehaviour(operationId, send),
    {
      name: 'no token: 401',
      operationId,
      on: 'live',
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { token: null, path: { integrationid: UNKNOWN_ID } }), { operationId, status: 401 });
      },
    },
    {
      name: 'unknown integration: 404',
      operationId,
      on: 'live',
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { path: { integrationid: UNKNOWN_ID } }), { operationId, status: 404 });
      },
    },
    {
      name: 'happy path: 200 and a valid body',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        // The temporary integration's own cleanup tolerates the 404 after this delete.
        const { id } = await createTemporaryIntegration(ctx, integrationBody());
        ctx.expectResponse(await send(ctx, { path: { integrationid: id } }), { operationId, status: 200 });
      },
    },
    {
      name: 'token without the ability: 403',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const token = ctx.token('withoutManageIntegrations', 'FORMS_API_TOKEN_WITHOUT_MANAGE_INTEGRATIONS');
        const { id } = await createTemporaryIntegration(ctx, integrationBody());
        ctx.expectResponse(await send(ctx, { token, path: { integrationid: id } }), { operationId, status: 403 });
      },
    },
  ],
};
