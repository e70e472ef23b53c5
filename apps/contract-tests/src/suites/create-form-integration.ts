// createFormIntegration: every documented status on the mock; on live targets 401, and with
// --write the happy path, 403, an invalid webhook URL (422) and a body without integration_id
// (422; ledger: integration-missing-kind-500). Whatever gets created is deleted.
import { documentedStatusChecks, prismOwnBehaviour, type Send } from './common.js';
import { createTemporaryIntegration, integrationBody } from './helpers.js';
import type { CheckContext } from '../check-context.js';
import type { Exchange } from '../model.js';
import type { OperationSuite } from './types.js';

const operationId = 'createFormIntegration';

export const send: Send = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).POST('/open/forms/{form}/integrations', {
      params: { path: { form: ctx.target.ids.formId, ...o.path } as never },
      body: (o.body ?? integrationBody()) as never,
    }),
  );

/** Deletes an integration a check created by accident (a request the service should have refused). */
function removeIfCreated(ctx: CheckContext, exchange: Exchange): void {
  const parsed = ctx.json(exchange);
  const id = parsed.ok ? (parsed.value as { form_integration?: { id?: number } })?.form_integration?.id : undefined;
  if (exchange.status === 200 && typeof id === 'number') {
    ctx.onCleanup(`delete integration ${id}`, async () => {
      await ctx.send(() => ctx.client().DELETE('/open/forms/{form}/integrations/{integrationid}', { params: { path: { form: ctx.target.ids.formId, integrationid: id } } }));
    });
  }
}

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
        const exchange = await send(ctx, { token: null });
        removeIfCreated(ctx, exchange);
        ctx.expectResponse(exchange, { operationId, status: 401 });
      },
    },
    {
      name: 'happy path: 200 and a valid body',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        await createTemporaryIntegration(ctx, integrationBody());
        ctx.expectResponse(ctx.recorder.last()!, { operationId, status: 200 });
      },
    },
    {
      name: 'token without the ability: 403',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const token = ctx.token('withoutManageIntegrations', 'FORMS_API_TOKEN_WITHOUT_MANAGE_INTEGRATIONS');
        const exchange = await send(ctx, { token });
        removeIfCreated(ctx, exchange);
        ctx.expectResponse(exchange, { operationId, status: 403 });
      },
    },
    {
      name: 'invalid webhook URL: 422',
      operationId,
      writes: true,
      async run(ctx) {
        const exchange = await send(ctx, { body: integrationBody({ webhook_url: 'not a url' }) });
        removeIfCreated(ctx, exchange);
        ctx.expectResponse(exchange, { operationId, status: 422 });
      },
    },
    {
      name: 'no integration_id: 422',
      operationId,
      writes: true,
      async run(ctx) {
        const { integration_id: _omitted, ...body } = integrationBody();
        const exchange = await send(ctx, { body });
        removeIfCreated(ctx, exchange);
        ctx.expectResponse(exchange, { operationId, status: 422, when: 'integration_id missing' });
      },
    },
  ],
};
