// createFormIntegration: every documented status on the mock; on live targets 401, and with
// --write the happy path, 403, an invalid webhook URL (422), a body without integration_id (500,
// as documented) and an Authorization custom header (200). Whatever gets created is deleted.
import { OPERATIONS } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import type { Exchange } from '../model.js';
import {
  deliberatelyInvalid,
  documentedStatusChecks,
  liveBasicChecks,
  prismOwnBehaviour,
  type Send,
} from './common.js';
import { deleteIntegrationAfterwards, integrationBody } from './helpers.js';
import type { OperationSuite } from './types.js';

const operationId = 'createFormIntegration';

export const send: Send<typeof operationId> = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).POST(OPERATIONS[operationId].path, {
      params: { path: { form: ctx.target.ids.formId, ...o.path } },
      body: o.body ?? integrationBody(),
    }),
  );

/** Deletes what a request created, whether the check meant it to (happy path) or the service should have refused it. */
function removeIfCreated(ctx: CheckContext, exchange: Exchange): void {
  const parsed = ctx.json(exchange);
  const id = parsed.ok
    ? (parsed.value as { form_integration?: { id?: unknown } } | null)?.form_integration?.id
    : undefined;
  if (exchange.status === 200 && typeof id === 'number') deleteIntegrationAfterwards(ctx, id);
}

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({
      operationId,
      send,
      happyPath: { writes: true },
      withoutAbility: { writes: true },
      inspect: removeIfCreated,
    }),
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
      name: 'no integration_id: Prism refuses it (422)',
      operationId,
      on: 'mock',
      async run(ctx) {
        const { integration_id: _omitted, ...body } = integrationBody();
        ctx.expectResponse(await send(ctx, { body: deliberatelyInvalid(body) }), { operationId, status: 422 });
      },
    },
    {
      name: 'no integration_id: 500 Server Error, nothing created',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const { integration_id: _omitted, ...body } = integrationBody();
        const exchange = await send(ctx, { body: deliberatelyInvalid(body) });
        removeIfCreated(ctx, exchange);
        ctx.expectResponse(exchange, { operationId, status: 500 });
      },
    },
    {
      name: 'an Authorization custom header: 200',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        // The published contract offers Authorization as a custom webhook header.
        const exchange = await send(ctx, {
          body: integrationBody({ webhook_headers: { Authorization: 'Bearer contract-test' } }),
        });
        removeIfCreated(ctx, exchange);
        ctx.expectResponse(exchange, { operationId, status: 200, traits: ['webhook-headers-name-authorization'] });
      },
    },
  ],
};
