// deleteFormIntegration: every documented status on the mock; on live targets 401 and 404, and
// with --write the happy path and 403 on a temporary integration.
import { OPERATIONS } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import { documentedStatusChecks, liveBasicChecks, prismOwnBehaviour, UNKNOWN_ID, type Send } from './common.js';
import { createTemporaryIntegration, integrationBody } from './helpers.js';
import type { OperationSuite } from './types.js';

const operationId = 'deleteFormIntegration';

export const send: Send<typeof operationId> = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).DELETE(OPERATIONS[operationId].path, {
      params: {
        path: { form: ctx.target.ids.formId, integrationid: ctx.target.ids.integrationId ?? UNKNOWN_ID, ...o.path },
      },
    }),
  );

/** A temporary integration to delete; its own cleanup tolerates the 404 after the check deleted it. */
const temporary = async (ctx: CheckContext) => ({
  path: { integrationid: (await createTemporaryIntegration(ctx, integrationBody())).id },
});

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({
      operationId,
      send,
      happyPath: { writes: true, request: temporary },
      noToken: { request: { path: { integrationid: UNKNOWN_ID } } },
      withoutAbility: { writes: true, request: temporary },
      unknown: { name: 'unknown integration: 404', request: { path: { integrationid: UNKNOWN_ID } } },
    }),
  ],
};
