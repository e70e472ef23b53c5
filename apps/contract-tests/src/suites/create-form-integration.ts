// createFormIntegration beyond the derived checks (which undo what it makes through the DELETE its
// links lead to): the suite's inactive body, and with --write an invalid webhook URL (422), a body
// without integration_id (500, as documented) and an Authorization custom header (200).
import type { CheckContext } from '../check-context.js';
import type { Exchange } from '../model.js';
import { deliberatelyInvalid, handSuite, operationSender } from './common.js';
import { removeAfterwards } from './derive.js';
import { integrationBody } from './helpers.js';

const operationId = 'createFormIntegration';
const send = operationSender(operationId, { body: () => integrationBody() });

/** Deletes what a request created, should the service have accepted what it must refuse. */
function removeIfCreated(ctx: CheckContext, exchange: Exchange): void {
  const parsed = ctx.json(exchange);
  if (exchange.status === 200 && parsed.ok)
    removeAfterwards(ctx, ctx.operation(operationId), { form: ctx.target.ids.formId }, parsed.value);
}

export const suite = handSuite({
  operationId,
  send,
  checks: [
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
});
