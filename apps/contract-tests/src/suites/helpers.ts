// Helpers the live checks share: temporary integrations (always removed), finding a submission,
// taking its answers apart for an update and putting them back afterwards.
import { randomBytes } from 'node:crypto';
import { answersToSendBack as keptAnswers } from '@forms-api/internal/answers';
import type { CheckContext } from '../check-context.js';
import { CheckFailed } from '../model.js';
import { OPERATIONS, type components } from '@forms-api/types';
import { envVariableOf } from '../targets/settings.js';
import { SUBMISSION_SEARCH_PAGES } from '../targets/target.js';
import { operationSender } from './common.js';
import { createTemporary, removeAfterwards } from './derive.js';

type Submission = components['schemas']['Submission'];
type SubmissionUpdate = components['schemas']['SubmissionUpdate'];
type WebhookIntegrationInput = components['schemas']['WebhookIntegrationInput'];
type FormField = components['schemas']['FormField'];

/** A body for a webhook integration the suite owns. Inactive by default, so it never dispatches. */
export function integrationBody(
  overrides: Partial<WebhookIntegrationInput['data']> & { status?: 'active' | 'inactive' } = {},
): WebhookIntegrationInput {
  const { status = 'inactive', ...data } = overrides;
  return {
    integration_id: 'webhook',
    status,
    data: { webhook_url: 'https://example.com/forms-api-contract-test', ...data },
  };
}

/** A random signing secret; registered for redaction so it never reaches a report. */
export function newSecret(ctx: CheckContext): string {
  const secret = `whsec_contract_${randomBytes(12).toString('hex')}`;
  ctx.extraSecrets.set(secret, '$WEBHOOK_SECRET');
  return secret;
}

const CREATE_INTEGRATION = 'createFormIntegration';

/**
 * Creates an integration on the target's form and registers its removal (through the DELETE the
 * spec links it to) as a cleanup, so it is removed even when the check fails. Returns its id.
 */
export async function createTemporaryIntegration(
  ctx: CheckContext,
  body: WebhookIntegrationInput,
  formId: number = ctx.target.ids.formId,
): Promise<{ id: number; body: unknown }> {
  const created = await createTemporary(
    ctx,
    ctx.operation(CREATE_INTEGRATION),
    operationSender(CREATE_INTEGRATION),
    { path: { form: formId }, body },
    '$response.body#/form_integration/id',
  );
  return { id: Number(created.id), body: created.body };
}

/** Registers the deletion of an integration as a cleanup of the check (a 404 means the check deleted it already). */
export function deleteIntegrationAfterwards(
  ctx: CheckContext,
  id: number,
  formId: number = ctx.target.ids.formId,
): void {
  // The removal is filled from the creation's request and answer, as the spec's link says: an answer naming `id`.
  removeAfterwards(ctx, ctx.operation(CREATE_INTEGRATION), { form: formId }, { form_integration: { id } });
}

/** Finds a submission of the target's form by id, walking the pages (at most `maxPages`). */
export async function findSubmission(
  ctx: CheckContext,
  id: number,
  maxPages = SUBMISSION_SEARCH_PAGES,
): Promise<Submission | undefined> {
  const formId = ctx.target.ids.formId;
  for (let page = 1; page <= maxPages; page++) {
    const exchange = await ctx.send(() =>
      ctx
        .client()
        .GET(OPERATIONS.listFormSubmissions.path, { params: { path: { id: formId }, query: { page, per_page: 100 } } }),
    );
    const parsed = ctx.json(exchange);
    if (exchange.status !== 200 || !parsed.ok) return undefined;
    const body = parsed.value as { data?: Submission[]; meta?: { last_page?: number } } | null;
    const found = body?.data?.find((s) => s.id === id);
    if (found) return found;
    if (!body?.meta?.last_page || page >= body.meta.last_page) return undefined;
  }
  return undefined;
}

/** The JSON type of a value, as a behavioural symptom words what was received (`absent`: no value at all). */
export const jsonType = (value: unknown): string =>
  value === undefined ? 'absent' : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** Keys of a submission's `data` that are not answers. */
export const META_KEYS: ReadonlySet<string> = new Set(['status', 'created_at', 'id', 'submission_id', 'ip_address']);

/** The answers of a submission as an update body (field ids only, plus completion_time). */
export function answersOf(submission: Submission): SubmissionUpdate {
  const answers: SubmissionUpdate = Object.fromEntries(
    Object.entries(submission.data).filter(([key]) => !META_KEYS.has(key)),
  );
  if (typeof submission.completion_time === 'number') answers.completion_time = Math.round(submission.completion_time);
  return answers;
}

/** Whether an answer is a file or signature answer as listed: file entries (in a list, or keyed by position). */
export const isListedFileAnswer = (value: unknown): boolean => {
  const items = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
  return (
    items.length > 0 &&
    items.every(
      (item) =>
        item !== null && typeof item === 'object' && typeof (item as { file_name?: unknown }).file_name === 'string',
    )
  );
};

/** The fields whose file or signature answer the submission holds. */
export const fileAnswersOf = (submission: Submission, fields: readonly FormField[]): FormField[] =>
  fields.filter((f) => (f.type === 'files' || f.type === 'signature') && isListedFileAnswer(submission.data[f.id]));

/**
 * A skip when the submission holds file or signature answers: an update that leaves them out
 * cannot be undone, since the service refuses the old file names once they were replaced (422
 * "Invalid file."), so the files would be lost for good.
 */
export function keepsItsFiles(ctx: CheckContext, submission: Submission, fields: readonly FormField[]): void {
  const held = fileAnswersOf(submission, fields);
  if (held.length > 0)
    ctx.skip(
      `submission ${submission.id} holds file answers (${held.map((f) => f.name).join(', ')}), which an update without them would lose for good: name one without file answers in FORMS_API_SUBMISSION_ID`,
    );
}

/**
 * The answers of a submission as an update body the service accepts back, by the rule the client's
 * `updateKeeping` follows too (`@forms-api/internal/answers`): a file answer as its entries' file
 * names, a signature as its file name, and only the form's fields.
 */
export const answersToSendBack = (submission: Submission, fields: readonly FormField[]): SubmissionUpdate =>
  keptAnswers(fields, submission.data, submission.completion_time) as SubmissionUpdate;

/** The submission the write checks may change, with a cleanup that puts its answers back. */
export async function borrowSubmission(ctx: CheckContext): Promise<Submission> {
  const id = ctx.target.ids.submissionId;
  if (id === undefined) return ctx.skip(`no submission to update (set ${envVariableOf('submissionId')})`);
  const original = await findSubmission(ctx, id);
  if (!original)
    throw new CheckFailed([
      { kind: 'setup', message: `submission ${id} was not found in form ${ctx.target.ids.formId}` },
    ]);
  restoreAfterwards(ctx, original, await formFields(ctx));
  return original;
}

/** Registers a cleanup that puts a submission's answers and completion time back, in the form the service accepts. */
export function restoreAfterwards(ctx: CheckContext, original: Submission, fields: readonly FormField[]): void {
  const formId = ctx.target.ids.formId;
  ctx.onCleanup(`restore the answers of submission ${original.id}`, async () => {
    const restore = await ctx.send(() =>
      ctx.client().PUT(OPERATIONS.updateFormSubmission.path, {
        params: { path: { id: formId, submission_id: original.id } },
        body: answersToSendBack(original, fields),
      }),
    );
    if (restore.status !== 200)
      throw new CheckFailed([
        { kind: 'setup', message: `PUT answered ${restore.status ?? 'nothing'}`, exchange: restore },
      ]);
  });
}

/** The form's fields, read with getForm (a skip when the form cannot be read). */
export async function formFields(ctx: CheckContext, formId: number = ctx.target.ids.formId): Promise<FormField[]> {
  const exchange = await ctx.send(() =>
    ctx.client().GET(OPERATIONS.getForm.path, { params: { path: { form: formId } } }),
  );
  const parsed = ctx.json(exchange);
  const fields = parsed.ok ? (parsed.value as { properties?: FormField[] } | null)?.properties : undefined;
  if (exchange.status !== 200 || !Array.isArray(fields))
    return ctx.skip(`could not read the form's fields (getForm answered ${exchange.status ?? 'nothing'})`);
  return fields;
}

/**
 * A field whose answer is free text, to change in an update: a `text` field when the form's
 * fields are known (a select's string answer must stay one of its options), else any string.
 */
export function stringField(submission: Submission, fields?: FormField[]): string | undefined {
  const freeText = fields ? new Set(fields.filter((f) => f.type === 'text').map((f) => f.id)) : undefined;
  return Object.entries(submission.data).find(
    ([key, value]) => !META_KEYS.has(key) && typeof value === 'string' && (!freeText || freeText.has(key)),
  )?.[0];
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
