// updateFormSubmission: every documented status on the mock; on live targets 401, 403, 404, a bad
// answer type (422), and with --write (always on the sandbox) the happy path, the ledger checks
// update-keeps-unsent-answers and update-sends-no-webhook. Every change is undone afterwards.
import type { CheckContext } from '../check-context.js';
import { documentedStatusChecks, prismOwnBehaviour, UNKNOWN_ID, type Send } from './common.js';
import { borrowSubmission, findSubmission, formFields, stringField } from './helpers.js';
import { setUpWebhook } from '../webhooks/round-trip.js';
import type { OperationSuite } from './types.js';

const operationId = 'updateFormSubmission';
/** The spec's own example body: valid on the mock. */
const MOCK_BODY = { completion_time: 74 };
/** How long to wait for a webhook that must not come. */
const QUIET_MS = 3_000;

const submissionIdOf = (ctx: CheckContext): number => ctx.target.ids.submissionId ?? UNKNOWN_ID;

export const send: Send = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).PUT('/open/forms/{id}/submissions/{submission_id}', {
      params: { path: { id: ctx.target.ids.formId, submission_id: submissionIdOf(ctx), ...o.path } as never },
      body: (o.body ?? MOCK_BODY) as never,
    }),
  );

/** An update that changes one text answer of the borrowed submission. */
async function changeOneAnswer(ctx: CheckContext) {
  const original = await borrowSubmission(ctx);
  const field = stringField(original, await formFields(ctx));
  if (!field) return ctx.skip(`submission ${original.id} has no text answer to change`);
  const value = `contract test ${new Date().toISOString()}`;
  const exchange = await send(ctx, { path: { submission_id: original.id }, body: { [field]: value } });
  return { original, field, value, exchange };
}

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, ['200', '401', '403', '404', '422', '429', '500'], send),
    ...prismOwnBehaviour(operationId, send),
    {
      name: 'bad answer type: 422',
      operationId,
      async run(ctx) {
        // completion_time is an integer; a word is invalid on every form, so nothing is changed.
        ctx.expectResponse(await send(ctx, { body: { completion_time: 'seventy' } }), { operationId, status: 422 });
      },
    },
    {
      name: 'no token: 401',
      operationId,
      on: 'live',
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { token: null, body: { completion_time: 1 } }), { operationId, status: 401 });
      },
    },
    {
      name: 'unknown submission: 404',
      operationId,
      on: 'live',
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { path: { submission_id: UNKNOWN_ID }, body: { completion_time: 1 } }), { operationId, status: 404 });
      },
    },
    {
      name: 'token without forms-write, invalid body: 403',
      operationId,
      on: 'live',
      async run(ctx) {
        const token = ctx.token('withoutFormsWrite', 'FORMS_API_TOKEN_WITHOUT_FORMS_WRITE');
        ctx.expectResponse(await send(ctx, { token, body: { completion_time: 'seventy' } }), { operationId, status: 403, when: 'token without forms-write sends an invalid body' });
      },
    },
    {
      name: 'token without forms-write: 403',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const token = ctx.token('withoutFormsWrite', 'FORMS_API_TOKEN_WITHOUT_FORMS_WRITE');
        // Borrowed so that, should the service wrongly accept it, the answers are put back.
        const original = await borrowSubmission(ctx);
        const field = stringField(original) ?? 'completion_time';
        const exchange = await send(ctx, { token, path: { submission_id: original.id }, body: { [field]: field === 'completion_time' ? 1 : 'contract test' } });
        ctx.expectResponse(exchange, { operationId, status: 403 });
      },
    },
    {
      name: 'happy path: 200 and a valid body',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const { exchange } = await changeOneAnswer(ctx);
        ctx.expectResponse(exchange, { operationId, status: 200 });
      },
    },
    {
      name: 'update-keeps-unsent-answers',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const { original, field, value, exchange } = await changeOneAnswer(ctx);
        if (exchange.status !== 200) return ctx.skip(`the update answered ${exchange.status ?? 'nothing'} (reported by the happy path)`);
        const after = await findSubmission(ctx, original.id);
        if (!after) return ctx.failCheck('update-keeps-unsent-answers', operationId, `submission ${original.id} disappeared after the update`);
        if (after.data[field] !== value) ctx.failCheck('update-keeps-unsent-answers', operationId, `the sent answer was not stored`, { expected: value, received: JSON.stringify(after.data[field]) });
        const lost = Object.keys(original.data).filter((key) => key !== field && JSON.stringify(original.data[key]) !== JSON.stringify(after.data[key]));
        if (original.completion_time !== after.completion_time) lost.push('completion_time');
        if (lost.length > 0) {
          ctx.failCheck('update-keeps-unsent-answers', operationId, `answers not sent were changed: ${lost.join(', ')}`, {
            expected: 'unsent answers unchanged',
            received: lost.map((k) => `${k}: ${JSON.stringify(k === 'completion_time' ? original.completion_time : original.data[k])} -> ${JSON.stringify(k === 'completion_time' ? after.completion_time : after.data[k])}`).join('; '),
            exchange,
          });
        }
      },
    },
    {
      name: 'update-sends-no-webhook',
      operationId,
      on: 'live',
      writes: true,
      async run(ctx) {
        const hook = await setUpWebhook(ctx);
        const mark = hook.receiver.received.length;
        const { exchange } = await changeOneAnswer(ctx);
        if (exchange.status !== 200) return ctx.skip(`the update answered ${exchange.status ?? 'nothing'} (reported by the happy path)`);
        const sent = await hook.receiver.waitFor(mark, QUIET_MS, ctx.signal);
        if (sent) {
          ctx.failCheck('update-sends-no-webhook', operationId, 'updating a submission sent a webhook', { expected: `no request within ${QUIET_MS} ms`, received: `${sent.method} ${sent.path} (${sent.rawBody.length} bytes)`, exchange });
        }
      },
    },
  ],
};
