// updateFormIntegration: every documented status on the mock; on live targets 401 and 404, and
// with --write the happy path and 403 on a temporary integration (deleted afterwards).
import { documentedStatusChecks, prismOwnBehaviour, UNKNOWN_ID, type Send } from './common.js';
import { createTemporaryIntegration, integrationBody } from './helpers.js';
import type { OperationSuite } from './types.js';

const operationId = 'updateFormIntegration';

export const send: Send = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).PUT('/open/forms/{form}/integrations/{integrationid}', {
      params: { path: { form: ctx.target.ids.formId, integrationid: ctx.target.ids.integrationId ?? UNKNOWN_ID, ...o.path } as never },
      body: (o.body ?? integrationBody()) as never,
    }),
  );

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, ['200', '401', '403', '404', '422', '429', '500'], send),
    ...prismOwnBehaviour(operationId, send),
    {
      name: 'no token: 401',
      operationId,
      on: 'live',
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { token: null, path: { integrationid: UNKNOWN_ID } }), { operationId, status: [401] });
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
        const { id } = await createTemporaryIntegration(ctx, integrationBody());
        ctx.expectResponse(await send(ctx, { path: { integrationid: id }, body: integrationBody({ webhook_url: 'https://example.com/forms-api-contract-test/updated' }) }), { operationId, status: 200 });
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
    {
      name: 'no integration_id: 422',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const { id } = await createTemporaryIntegration(ctx, integrationBody());
        const { integration_id: _omitted, ...body } = integrationBody();
        ctx.expectResponse(await send(ctx, { path: { integrationid: id }, body }), { operationId, status: 422, when: 'integration_id missing' });
      },
    },
  ],
};
