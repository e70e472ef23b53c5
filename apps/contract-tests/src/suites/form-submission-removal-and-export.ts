// deleteFormSubmission and exportFormSubmissions beyond the derived checks. A deletion runs on a
// submission the check answered itself (createFormAnswer, found by a marker in its text answers,
// since the public answer names it by its public UUID only), never on one of the user's. An export
// asks for one column.
import { randomUUID } from 'node:crypto';
import type { CheckContext } from '../check-context.js';
import { handSuite, operationSender, setupFailed, type BasicCase } from './common.js';
import { answerOnce } from './create-form-answer.js';

/** A submission the check made on the target's form, removed afterwards if the check did not. */
async function temporarySubmission(ctx: CheckContext): Promise<Record<string, number>> {
  const id = ctx.target.ids.formId;
  const submission_id = await answerOnce(ctx, id, `contract-removal-${randomUUID()}`);
  ctx.onCleanup(`deleteFormSubmission ${id}/${submission_id}`, async () => {
    const removed = await operationSender('deleteFormSubmission')(ctx, { path: { id, submission_id } });
    if (removed.status !== 200 && removed.status !== 404)
      setupFailed(`deleteFormSubmission answered ${removed.status ?? 'nothing'}`, removed);
  });
  return { id, submission_id };
}

const onTemporarySubmission: BasicCase = {
  writes: true,
  request: async (ctx) => ({ path: await temporarySubmission(ctx) }),
};

export const deleteFormSubmission = handSuite({
  operationId: 'deleteFormSubmission',
  happyPath: onTemporarySubmission,
  withoutAbility: onTemporarySubmission,
});

// Like every POST it waits for --write on a tenant, though it changes nothing: an export of more
// than 1,000 submissions starts a job on the tenant, and the export has a budget of 10 a minute.
const oneColumn: BasicCase = { writes: true, request: { body: { columns: { created_at: true } } } };

export const exportFormSubmissions = handSuite({
  operationId: 'exportFormSubmissions',
  happyPath: oneColumn,
  withoutAbility: oneColumn,
});
