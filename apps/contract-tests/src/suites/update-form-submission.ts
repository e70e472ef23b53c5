// updateFormSubmission beyond the derived checks (its documented statuses, Prism's 401, no token):
// a bad answer type (422), and with --write (always on the sandbox) the happy path and 403 on a
// borrowed submission, 404 with a body valid for the form, an update of only the changed answer,
// unsent answers kept, no webhook sent, file answers sent back as listed, and an update on a
// captcha form. Every change is undone afterwards.
import { OPERATIONS, type components } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import { deliberatelyInvalid, handSuite, operationSender, UNKNOWN_ID, type SendOptions } from './common.js';
import {
  answersOf,
  answersToSendBack,
  borrowSubmission,
  findSubmission,
  formFields,
  isListedFileAnswer,
  jsonType,
  keepsItsFiles,
  restoreAfterwards,
  stringField,
} from './helpers.js';
import { envVariableOf } from '../targets/settings.js';
import { setUpWebhook } from '../webhooks/round-trip.js';

type FormField = components['schemas']['FormField'];
type Submission = components['schemas']['Submission'];

const operationId = 'updateFormSubmission';
/** How long to wait for a webhook that must not come. */
const QUIET_MS = 3_000;

const send = operationSender(operationId);

/** The borrowed submission (put back afterwards), the form's fields and a text field to change. */
async function borrowForChange(ctx: CheckContext) {
  const original = await borrowSubmission(ctx);
  const fields = await formFields(ctx);
  const field = stringField(original, fields);
  if (!field) return ctx.skip(`submission ${original.id} has no text answer to change`);
  return { original, fields, field, value: `contract test ${new Date().toISOString()}` };
}

/**
 * An update as the contract describes it and as every service accepts: the submission's answers,
 * one of them changed. (The service validates an update like a new answer, so a body with only
 * the changed field is a check of its own.)
 */
async function fullChange(ctx: CheckContext) {
  const change = await borrowForChange(ctx);
  const request: SendOptions<typeof operationId> = {
    path: { submission_id: change.original.id },
    body: { ...answersToSendBack(change.original, change.fields), [change.field]: change.value },
  };
  return { ...change, request };
}

/** What a webhook body is about, as a symptom words it: the submission it names, or that it names none. */
function webhookAbout(rawBody: Buffer, submissionId: number): string {
  try {
    const named = (JSON.parse(rawBody.toString('utf8')) as { submission_id?: unknown } | null)?.submission_id;
    if (named === undefined) return 'no-submission';
    return named === submissionId ? 'the-updated-submission' : 'another-submission';
  } catch {
    return 'not-json';
  }
}

/** Required fields of the form that a body leaves out. */
const requiredLeftOut = (fields: FormField[], body: object): string[] =>
  fields.filter((f) => f.required && !f.hidden && !Object.hasOwn(body, f.id)).map((f) => f.id);

/** The answers of a submission the update checks may send to any submission (read, never changed). */
async function someAnswers(ctx: CheckContext) {
  const id = ctx.target.ids.submissionId;
  if (id === undefined) return ctx.skip(`no submission to read answers from (set ${envVariableOf('submissionId')})`);
  const submission = await findSubmission(ctx, id);
  if (!submission) return ctx.skip(`submission ${id} was not found in form ${ctx.target.ids.formId}`);
  return answersToSendBack(submission, await formFields(ctx));
}

/** How many pages of the form's submissions to read looking for one with a file answer. */
const FILE_SEARCH_PAGES = 5;

/** A submission of the target's form with a file or signature answer, and the form's fields. */
async function submissionWithFiles(ctx: CheckContext) {
  const fields = await formFields(ctx);
  const fileFields = fields.filter((f) => f.type === 'files' || f.type === 'signature').map((f) => f.id);
  if (fileFields.length === 0) return ctx.skip(`form ${ctx.target.ids.formId} has no file or signature field`);
  const formId = ctx.target.ids.formId;
  for (let page = 1; page <= FILE_SEARCH_PAGES; page++) {
    const list = await ctx.send(() =>
      ctx.client().GET(OPERATIONS.listFormSubmissions.path, {
        params: { path: { id: formId }, query: { status: 'completed', page, per_page: 100 } },
      }),
    );
    const parsed = ctx.json(list);
    const body = parsed.ok ? (parsed.value as { data?: Submission[]; meta?: { last_page?: number } } | null) : null;
    const found = body?.data?.find((s) => fileFields.some((id) => isListedFileAnswer(s.data[id])));
    if (found) return { submission: found, fields };
    if (!body?.meta?.last_page || page >= body.meta.last_page) break;
  }
  return ctx.skip(
    `no completed submission of form ${formId} has a file or signature answer in its first ${FILE_SEARCH_PAGES} pages`,
  );
}

export const suite = handSuite({
  operationId,
  happyPath: { writes: true, request: async (ctx) => (await fullChange(ctx)).request },
  withoutAbility: {
    name: 'token without forms-write: 403',
    writes: true,
    // Borrowed so that, should the service wrongly accept it, the answers are put back.
    request: async (ctx) => (await fullChange(ctx)).request,
  },
  // A body valid for the form, so only the unknown id can be wrong with it.
  unknown: { request: async (ctx) => ({ path: { submission_id: UNKNOWN_ID }, body: await someAnswers(ctx) }) },
  checks: [
    {
      name: 'bad answer type: 422',
      operationId,
      async run(ctx) {
        // A submission that exists, so only the body can be wrong (an unknown one is a 404 first).
        if (ctx.target.kind === 'live' && ctx.target.ids.submissionId === undefined)
          return ctx.skip(`no submission to address (set ${envVariableOf('submissionId')})`);
        // completion_time is an integer; a word is invalid on every form, so nothing is changed.
        ctx.expectResponse(await send(ctx, { body: deliberatelyInvalid({ completion_time: 'seventy' }) }), {
          operationId,
          status: 422,
        });
      },
    },
    {
      name: 'token without forms-write, invalid body: 403',
      operationId,
      on: 'live',
      async run(ctx) {
        const token = ctx.tokenWithoutAbilityFor(operationId);
        ctx.expectResponse(await send(ctx, { token, body: deliberatelyInvalid({ completion_time: 'seventy' }) }), {
          operationId,
          status: 403,
          traits: ['body-invalid'],
        });
      },
    },
    {
      name: 'only the changed answer: 200',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        // The contract: send the fields to change.
        const { original, fields, field, value } = await borrowForChange(ctx);
        keepsItsFiles(ctx, original, fields);
        const body = { [field]: value };
        const traits = requiredLeftOut(fields, body).length > 0 ? ['body-omits-required-field'] : [];
        ctx.expectResponse(await send(ctx, { path: { submission_id: original.id }, body }), {
          operationId,
          status: 200,
          traits,
        });
      },
    },
    {
      name: 'unsent answers are kept',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        // Every required answer (so any service accepts it) and the changed one; optional answers
        // and completion_time are left out and must stay as they were.
        const { original, fields, field, value } = await borrowForChange(ctx);
        keepsItsFiles(ctx, original, fields);
        const required = new Set(fields.filter((f) => f.required).map((f) => f.id));
        const body = {
          ...Object.fromEntries(Object.entries(answersOf(original)).filter(([key]) => required.has(key))),
          [field]: value,
        };
        const exchange = await send(ctx, { path: { submission_id: original.id }, body });
        if (exchange.status !== 200)
          return ctx.skip(`the update answered ${exchange.status ?? 'nothing'} (reported by the happy path)`);
        const after = await findSubmission(ctx, original.id);
        if (!after)
          return ctx.observe(
            'updated-submission-gone',
            operationId,
            `submission ${original.id} disappeared after the update`,
            { exchange },
          );
        if (after.data[field] !== value)
          ctx.observe('sent-answer-not-stored', operationId, 'the sent answer was not stored', {
            expected: value,
            received: ctx.excerpt(JSON.stringify(after.data[field])),
            exchange,
          });
        const lost = Object.keys(original.data).filter(
          (key) => !Object.hasOwn(body, key) && JSON.stringify(original.data[key]) !== JSON.stringify(after.data[key]),
        );
        if (original.completion_time !== after.completion_time) lost.push('completion_time');
        const now = (key: string) => (key === 'completion_time' ? after.completion_time : after.data[key]);
        if (lost.length > 0) {
          ctx.observe('unsent-answers-changed', operationId, `answers not sent were changed: ${lost.join(', ')}`, {
            expected: 'unsent answers unchanged',
            received: lost
              .map(
                (k) =>
                  `${k}: ${JSON.stringify(k === 'completion_time' ? original.completion_time : original.data[k])} -> ${JSON.stringify(k === 'completion_time' ? after.completion_time : after.data[k])}`,
              )
              .join('; '),
            exchange,
            // Removed or reset is the service's replacement; another value there is another defect.
            symptom: { at: lost, received: lost.map((key) => jsonType(now(key))) },
          });
        }
      },
    },
    {
      name: 'an update sends no webhook',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const hook = await setUpWebhook(ctx);
        const mark = hook.receiver.received.length;
        const { request, original } = await fullChange(ctx);
        const exchange = await send(ctx, request);
        if (exchange.status !== 200)
          return ctx.skip(`the update answered ${exchange.status ?? 'nothing'} (reported by the happy path)`);
        const sent = await hook.receiver.waitFor(mark, QUIET_MS, ctx.signal);
        if (sent) {
          ctx.observe('update-sends-webhook', operationId, 'updating a submission sent a webhook', {
            expected: `no request within ${QUIET_MS} ms`,
            received: `${sent.method} ${sent.path} (${sent.rawBody.length} bytes)`,
            exchange,
            // The service announces the updated submission again; a request about anything else is another defect.
            symptom: { received: [webhookAbout(sent.rawBody, original.id)] },
          });
        }
      },
    },
    {
      name: 'file answers sent back as listed: 200',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        // The contract: answers are the values of the fields, and file answers are lists of file
        // entries; so a submission's own answers, as listed, are a valid update of it.
        const { submission, fields } = await submissionWithFiles(ctx);
        restoreAfterwards(ctx, submission, fields);
        const exchange = await send(ctx, { path: { submission_id: submission.id }, body: answersOf(submission) });
        ctx.expectResponse(exchange, { operationId, status: 200, traits: ['body-sends-file-answers-as-listed'] });
      },
    },
    {
      name: 'update on a captcha form: 200',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const formId = ctx.target.ids.captchaFormId;
        if (ctx.target.ownForm)
          return ctx.skip(
            `--own-form: this update writes to a submission of ${envVariableOf('captchaFormId')}, a form of yours whose receivers would get it; run it without --own-form where they may`,
          );
        if (formId === undefined) return ctx.skip(`no captcha-protected form (set ${envVariableOf('captchaFormId')})`);
        const list = await ctx.send(() =>
          ctx.client().GET(OPERATIONS.listFormSubmissions.path, {
            params: { path: { id: formId }, query: { status: 'completed', per_page: 1 } },
          }),
        );
        const parsed = ctx.json(list);
        const submission = parsed.ok ? (parsed.value as { data?: Submission[] } | null)?.data?.[0] : undefined;
        if (!submission) return ctx.skip(`form ${formId} has no completed submission to update`);
        // Its own answers, unchanged: nothing to put back, whatever the service makes of it.
        const exchange = await send(ctx, {
          path: { id: formId, submission_id: submission.id },
          body: answersOf(submission),
        });
        ctx.expectResponse(exchange, { operationId, status: 200, traits: ['form-has-captcha'] });
      },
    },
  ],
});
