// getForm: every documented status on the mock (by slug: see formRef); on live targets the happy
// path, 401, 403 for a token with neither forms-read nor manage-integrations, and 404.
import { OPERATIONS } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import { documentedStatusChecks, liveBasicChecks, prismOwnBehaviour, type Send } from './common.js';
import type { OperationSuite } from './types.js';

const operationId = 'getForm';

/**
 * Prism 5.14.2 validates the id-or-slug parameter with `oneOf` after coercing it, so a numeric id
 * matches both branches and gets a 422; on the mock the suite addresses the form by slug.
 */
export function formRef(ctx: CheckContext): string | number {
  return ctx.target.kind === 'mock' && ctx.target.ids.formSlug ? ctx.target.ids.formSlug : ctx.target.ids.formId;
}

export const send: Send<typeof operationId> = (ctx, o = {}) =>
  ctx.send(() =>
    ctx
      .client(o.token, o.headers)
      .GET(OPERATIONS[operationId].path, { params: { path: { form: formRef(ctx), ...o.path } } }),
  );

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({ operationId, send, unknown: { request: { path: { form: 'no-such-form-contract-test' } } } }),
  ],
};
