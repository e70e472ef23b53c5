// updateFormIntegration beyond the derived checks (which run on a temporary integration the spec's
// links make): the suite's inactive body, and with --write a body without integration_id (500, as
// documented) and an Authorization custom header (200), each on a temporary integration.
import type { CheckContext } from '../check-context.js';
import { deliberatelyInvalid, handSuite, operationSender } from './common.js';
import { createTemporaryIntegration, integrationBody } from './helpers.js';

const operationId = 'updateFormIntegration';
const send = operationSender(operationId, { body: () => integrationBody() });

const temporaryId = async (ctx: CheckContext): Promise<number> =>
  (await createTemporaryIntegration(ctx, integrationBody())).id;

export const suite = handSuite({
  operationId,
  send,
  checks: [
    {
      name: 'no integration_id: 500 Server Error',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const id = await temporaryId(ctx);
        const { integration_id: _omitted, ...body } = integrationBody();
        ctx.expectResponse(await send(ctx, { path: { integrationid: id }, body: deliberatelyInvalid(body) }), {
          operationId,
          status: 500,
        });
      },
    },
    {
      name: 'an Authorization custom header: 200',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const id = await temporaryId(ctx);
        const body = integrationBody({ webhook_headers: { Authorization: 'Bearer contract-test' } });
        ctx.expectResponse(await send(ctx, { path: { integrationid: id }, body }), {
          operationId,
          status: 200,
          traits: ['webhook-headers-name-authorization'],
        });
      },
    },
  ],
});
