// listFormIntegrations: every documented status on the mock; on live targets the happy path, 401,
// 403 without manage-integrations and 404.
import { documentedStatusChecks, liveBasicChecks, prismOwnBehaviour, UNKNOWN_ID, type Send } from './common.js';
import type { OperationSuite } from './types.js';

const operationId = 'listFormIntegrations';

export const send: Send = (ctx, o = {}) =>
  ctx.send(() => ctx.client(o.token, o.headers).GET('/open/forms/{form}/integrations', { params: { path: { form: ctx.target.ids.formId, ...o.path } as never } }));

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, ['200', '401', '403', '404', '429', '500'], send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({ operationId, send, forbidden: { token: 'withoutManageIntegrations', variable: 'FORMS_API_TOKEN_WITHOUT_MANAGE_INTEGRATIONS' }, unknown: { form: UNKNOWN_ID } }),
  ],
};
