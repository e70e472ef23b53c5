// updateFormSubmission: every documented status on the mock; on live targets 401, 403, 404, a bad
// answer type (422), and with --write (always on the sandbox) the happy path, the ledger checks
// update-keeps-unsent-answers and update-sends-no-webhook. Every change is undone afterwards.
import { OPERATIONS } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import { deliberatelyInvalid, documentedStatusChecks, liveBasicChecks, prismOwnBehaviour, UNKNOWN_ID, type Send, type SendOptions } from './common.js';
import { borrowSubmission, findSubmission, formFields, stringField } from './helpers.js';
import { setUpWebhook } from '../webhooks/round-trip.js';
import type { OperationSuite } from './types.js';

const operationId = 'updateFormSubmission';
/** The spec's own example body: valid on the mock. */
const MOCK_BODY = { completion_time: 74 };
/** A valid body that changes nothing worth restoring, for requests the service must refuse. */
const HARMLESS_BODY = { completion_time: 1 };
/** How long to wait for a webhook that must not come. */
const QUIET_MS = 3_000;

const submissionIdOf = (ctx: CheckContext): number => ctx.target.ids.submissionId ?? UNKNOWN_ID;

export const send: Send<typeof operationId> = (ctx, o = {}) =>
  ctx.send(() =>
    ctx.client(o.token, o.headers).PUT(OPERATIONS[operationId].path, {
      params: { path: { id: ctx.target.ids.formId, submission_id: submissionIdOf(ctx), ...o.path } },
      body: o.body ?? MOCK_BODY,
    }),
  );

/** An update of one text answer of the borrowed submission (put back afterwards). */
async function oneAnswerChange(ctx: CheckContext) {
  const original = await borrowSubmission(ctx);
  const field = stringField(original, await formFields(ctx));
  if (!field) return ctx.skip(`submission ${original.id} has no text answer to change`);
  const value = `contract test ${new Date().toISOString()}`;
  const request: SendOptions<typeof operationId> = { path: { submission_id: original.id }, body: { [field]: value } };
  return { original, field, value, request };
}

async function changeOneAnswer(ctx: CheckContext) {
  const change = await oneAnswerChange(ctx);
  return { ...change, exchange: await send(ctx, change.request) };
}

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
    {
      name: 'bad answer type: 422',
      operationId,
      async run(ctx) {
        // completion_time is an integer; a word is invalid on every form, so nothing is changed.
        ctx.expectResponse(await send(ctx, { body: deliberatelyInvalid({ completion_time: 'seventy' }) }), { operationId, status: 422 });
      },
    },
    ...liveBasicChecks({
      operationId,
      send,
      happyPath: { writes: true, request: async (ctx) => (await oneAnswerChange(ctx)).request },
      noToken: { request: { body: HARMLESS_BODY } },
      withoutAbility: {
        name: 'token without forms-write: 403',
        writes: true,
        // Borrowed so that, should the service wrongly accept it, the answers are put back.
        request: async (ctx) => {
          const original = await borrowSubmission(ctx);
          const field = stringField(original) ?? 'completion_time';
          return { path: { submission_id: original.id }, body: { [field]: field === 'completion_time' ? 1 : 'contract test' } };
        },
      },
      unknown: { name: 'unknown submission: 404', request: { path: { submission_id: UNKNOWN_ID }, body: HARMLESS_BODY } },
    }),
    {
      name: 'token without forms-write, invalid body: 403',
      operationId,
      on: 'live',
      async run(ctx) {
        const token = ctx.tokenWithoutAbilityFor(operationId);
        ctx.expectResponse(await send(ctx, { token, body: deliberatelyInvalid({ completion_time: 'seventy' }) }), { operationId, status: 403, when: 'token without forms-write sends an invalid body' });
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
        if (after.data[field] !== value) ctx.failCheck('update-keeps-unsent-answers', operationId, `the sent answer was not stored`, { expected: value, received: ctx.excerpt(JSON.stringify(after.data[field])) });
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
