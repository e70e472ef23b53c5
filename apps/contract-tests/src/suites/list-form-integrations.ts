// listFormIntegrations: every documented status on the mock; on live targets the happy path, 401,
// 403 without manage-integrations and 404.
import { OPERATIONS } from '@forms-api/types';
import { documentedStatusChecks, liveBasicChecks, prismOwnBehaviour, UNKNOWN_ID, type Send } from './common.js';
import type { OperationSuite } from './types.js';

const operationId = 'listFormIntegrations';

export const send: Send<typeof operationId> = (ctx, o = {}) =>
  ctx.send(() =>
    ctx
      .client(o.token, o.headers)
      .GET(OPERATIONS[operationId].path, { params: { path: { form: ctx.target.ids.formId, ...o.path } } }),
  );

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({ operationId, send, unknown: { request: { path: { form: UNKNOWN_ID } } } }),
  ],
};
