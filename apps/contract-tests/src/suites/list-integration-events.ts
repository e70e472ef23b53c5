// listIntegrationEvents: every documented status on the mock; on live targets the happy path on the
// configured integration (or a temporary one with --write), 401, 403 and 404.
import { documentedStatusChecks, prismOwnBehaviour, UNKNOWN_ID, type Send } from './common.js';
import { readableIntegrationId } from './helpers.js';
import type { OperationSuite } from './types.js';

const operationId = 'listIntegrationEvents';

export const send: Send = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).GET('/open/forms/{form}/integrations/{integrationid}/events', {
      params: { path: { form: ctx.target.ids.formId, integrationid: ctx.target.ids.integrationId ?? UNKNOWN_ID, ...o.path } as never },
    }),
  );

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, ['200', '401', '403', '404', '429', '500'], send),
    ...prismOwnBehaviour(operationId, send),
    {
      name: 'happy path: 200 and a valid body',
      operationId,
      on: 'live',
      async run(ctx) {
        const integrationid = await readableIntegrationId(ctx);
        ctx.expectResponse(await send(ctx, { path: { integrationid } }), { operationId, status: 200 });
      },
    },
    {
      name: 'no token: 401',
      operationId,
      on: 'live',
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { token: null }), { operationId, status: 401 });
      },
    },
    {
      name: 'token without the ability: 403',
      operationId,
      on: 'live',
      async run(ctx) {
        const token = ctx.token('withoutManageIntegrations', 'FORMS_API_TOKEN_WITHOUT_MANAGE_INTEGRATIONS');
        const integrationid = await readableIntegrationId(ctx);
        ctx.expectResponse(await send(ctx, { token, path: { integrationid } }), { operationId, status: 403 });
      },
    },
    {
      name: 'unknown id: 404',
      operationId,
      on: 'live',
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { path: { integrationid: UNKNOWN_ID } }), { operationId, status: 404 });
      },
    },
  ],
};
