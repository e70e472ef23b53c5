// --own-form: the write checks of a live run act on a form the run makes in the target's workspace
// (the configured form's fields, or the fields of the spec's example), with no integration of its
// own, answered once; it is deleted, with its submissions, when the target's checks end.
import { randomUUID } from 'node:crypto';
import type { CheckContext } from './check-context.js';
import { linkValue, requestExample } from './operations.js';
import { operationSender, setupFailed, withTargetIds } from './suites/common.js';
import { createTemporary } from './suites/derive.js';
import { answerOnce } from './suites/create-form-answer.js';
import { formFields } from './suites/helpers.js';
import type { Target, TargetIds } from './targets/target.js';

const CREATE_FORM = 'createForm';

/** What the run's form gives the checks: its id and slug, and a completed submission of it. */
export type OwnFormIds = Pick<TargetIds, 'formId' | 'formSlug' | 'submissionId'>;

/**
 * Makes the run's form through createForm and registers its deletion (the DELETE the spec links
 * it to) as a cleanup of `ctx` before anything else is sent; then answers it once.
 */
export async function makeOwnForm(ctx: CheckContext): Promise<OwnFormIds> {
  const op = ctx.operation(CREATE_FORM);
  const example = requestExample(ctx.spec.bundle, op) as Record<string, unknown>;
  // Before the run's form exists, the target may name no form (--own-form alone).
  const configured = (ctx.target.ids as Partial<TargetIds>).formId;
  const properties = configured === undefined ? example.properties : await formFields(ctx, configured);
  const body = withTargetIds(ctx, op, {
    ...example,
    title: `forms-contract --own-form ${new Date().toISOString()} (deleted when the run ends)`,
    visibility: 'public',
    properties,
  });
  const made = await createTemporary(ctx, op, operationSender(CREATE_FORM), { body }, '$response.body#/form/id');
  const formId = made.id;
  if (typeof formId !== 'number') return setupFailed(`createForm answered a form id that is not a number`);
  const slug = linkValue('$response.body#/form/slug', {}, made.body);
  const submissionId = await answerOnce(ctx, formId, `contract-own-form-${randomUUID()}`);
  return { formId, submissionId, ...(typeof slug === 'string' ? { formSlug: slug } : {}) };
}

/** Whether the settings name a form (with --own-form they may not: the run's form is then the only one). */
export const namesAForm = (target: Target): boolean => (target.ids as Partial<TargetIds>).formId !== undefined;

/**
 * The targets the checks get in a --own-form run: the write checks the run's form and its
 * submission (and no integration of the configured form); the read checks the configured form,
 * or the run's form when the settings name none. Without the run's form (it could not be made):
 * no target for the writes, and none for the reads when the settings name no form.
 */
export function withOwnForm(target: Target, own: OwnFormIds | undefined): { reads?: Target; writes?: Target } {
  if (!own) return namesAForm(target) ? { reads: target } : {};
  const { integrationId: _ofTheConfiguredForm, ...others } = target.ids;
  return {
    reads: namesAForm(target) ? target : { ...target, ids: { ...target.ids, ...own } },
    writes: { ...target, ids: { ...others, ...own } },
  };
}
