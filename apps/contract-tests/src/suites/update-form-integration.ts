// updateFormIntegration: every documented status on the mock; on live targets 401 and 404, and
// with --write the happy path, 403, a body without integration_id (500, as documented) and an
// Authorization custom header (200), each on a temporary integration (deleted afterwards).
import { OPERATIONS } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import {
  deliberatelyInvalid,
  documentedStatusChecks,
  liveBasicChecks,
  prismOwnBehaviour,
  UNKNOWN_ID,
  type Send,
} from './common.js';
import { createTemporaryIntegration, integrationBody } from './helpers.js';
import type { OperationSuite } from './types.js';

const operationId = 'updateFormIntegration';

export const send: Send<typeof operationId> = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).PUT(OPERATIONS[operationId].path, {
      params: {
        path: { form: ctx.target.ids.formId, integrationid: ctx.target.ids.integrationId ?? UNKNOWN_ID, ...o.path },
      },
      body: o.body ?? integrationBody(),
    }),
  );

const temporaryId = async (ctx: CheckContext): Promise<number> =>
  (await createTemporaryIntegration(ctx, integrationBody())).id;

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({
      operationId,
      send,
      happyPath: {
        writes: true,
        request: async (ctx) => ({
          path: { integrationid: await temporaryId(ctx) },
          body: integrationBody({ webhook_url: 'https://example.com/forms-api-contract-test/updated' }),
        }),
      },
      noToken: { request: { path: { integrationid: UNKNOWN_ID } } },
      withoutAbility: { writes: true, request: async (ctx) => ({ path: { integrationid: await temporaryId(ctx) } }) },
      unknown: { name: 'unknown integration: 404', request: { path: { integrationid: UNKNOWN_ID } } },
    }),
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
};
