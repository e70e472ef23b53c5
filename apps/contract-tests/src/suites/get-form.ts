// getForm: every documented status on the mock (by slug: see formRef); on live targets the happy
// path, 401, 403 for a token with neither forms-read nor manage-integrations, and 404.
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

export const send: Send = (ctx, o = {}) =>
  ctx.send(() => ctx.client(o.token, o.headers).GET('/open/forms/{form}', { params: { path: { form: formRef(ctx), ...o.path } as never } }));

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, ['200', '401', '403', '404', '429', '500'], send),
    ...prismOwnBehaviour(operationId, send),
    ...liveBasicChecks({ operationId, send, forbidden: { token: 'withoutAbilities', variable: 'FORMS_API_TOKEN_WITHOUT_ABILITIES' }, unknown: { form: 'no-such-form-contract-test' } }),
  ],
};
