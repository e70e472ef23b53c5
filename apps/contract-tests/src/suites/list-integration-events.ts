// listIntegrationEvents: every documented status on the mock; on live targets the happy path on the
// configured integration (or a temporary one with --write), 401, 403 and 404.
import { OPERATIONS } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import { documentedStatusChecks, liveBasicChecks, prismOwnBehaviour, UNKNOWN_ID, type Send } from './common.js';
import { readableIntegrationId } from './helpers.js';
import type { OperationSuite } from './types.js';

const operationId = 'listIntegrationEvents';

export const send: Send<typeof operationId> = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).GET(OPERATIONS[operationId].path, {
      params: {
        path: { form: ctx.target.ids.formId, integrationid: ctx.target.ids.integrationId ?? UNKNOWN_ID, ...o.path },
      },
    }),
  );

/** The configured integration, or a temporary one (with --write). */
const readable = async (ctx: CheckContext) => ({ path: { integrationid: await readableIntegrationId(ctx) } });

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({
      operationId,
      send,
      happyPath: { request: readable },
      withoutAbility: { request: readable },
      unknown: { request: { path: { integrationid: UNKNOWN_ID } } },
    }),
  ],
};
