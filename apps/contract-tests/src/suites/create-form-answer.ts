// createFormAnswer (public): every documented status on the mock; on live targets an unknown form
// (404), and with --write the webhook round trip: answer -> signed submission.created at the
// suite's receiver -> signature and payload checked -> a `success` dispatch in the events list.
import { OPERATIONS, type components } from '@forms-api/types';
import { verify } from '@forms-api/webhook-verify';
import { describeErrors, type CheckContext } from '../check-context.js';
import { setUpWebhook } from '../webhooks/round-trip.js';
import { documentedStatusChecks, prismOwnBehaviour, type Send } from './common.js';
import { formFields, sleep } from './helpers.js';
import { formRef } from './get-form.js';
import type { OperationSuite } from './types.js';

type FormField = components['schemas']['FormField'];
type AnswerRequest = components['schemas']['AnswerRequest'];
type AnswerValue = components['schemas']['AnswerValue'];
const operationId = 'createFormAnswer';
const MOCK_BODY = { completion_time: 38 };
const DELIVERY_TIMEOUT_MS = 15_000;

export const send: Send<typeof operationId> = (ctx, o = {}) =>
  ctx.send(() =>
    // A public operation: no token unless a check asks for one.
    ctx.client(o.token === undefined ? null : o.token, o.headers).POST(OPERATIONS[operationId].path, {
      params: { path: { form: formRef(ctx), ...o.path } },
      body: o.body ?? MOCK_BODY,
    }),
  );

/** A plausible answer for each field the form defines (required ones must be valid). */
export function answersFor(fields: FormField[], marker: string): AnswerRequest {
  const answers: AnswerRequest = { completion_time: 5 };
  for (const field of fields) {
    const option = (field.select ?? field.multi_select)?.options[0]?.name;
    const value: AnswerValue | undefined = (() => {
      switch (field.type) {
        case 'text': case 'rich_text': return `${field.name} ${marker}`;
        case 'email': return 'contract-test@example.com';
        case 'url': return 'https://example.com/contract-test';
        case 'number': case 'rating': case 'scale': case 'slider': return 1;
        case 'checkbox': return true;
        case 'date': return new Date().toISOString().slice(0, 10);
        case 'phone_number': return '+15555550100';
        case 'select': return option;
        case 'multi_select': return option ? [option] : undefined;
        default: return undefined;
      }
    })();
    if (value !== undefined && !field.type.startsWith('nf-')) answers[field.id] = value;
  }
  return answers;
}

async function webhookRoundTrip(ctx: CheckContext): Promise<void> {
  const hook = await setUpWebhook(ctx);
  const marker = `rt-${Date.now()}`;
  const mark = hook.receiver.received.length;
  const answer = await send(ctx, { path: { form: ctx.target.ids.formId }, body: answersFor(await formFields(ctx), marker) });
  if (ctx.expectResponse(answer, { operationId, status: 200 }) === undefined || answer.status !== 200) return;

  const delivery = await hook.receiver.waitFor(mark, DELIVERY_TIMEOUT_MS, ctx.signal);
  if (!delivery) return ctx.observe('webhook-round-trip', operationId, 'no submission.created request reached the receiver', { expected: `a POST within ${DELIVERY_TIMEOUT_MS} ms`, received: 'nothing', exchange: answer });

  if (delivery.bodyLimit !== undefined) {
    return ctx.observe('webhook-round-trip', operationId, `the webhook body is longer than ${delivery.bodyLimit} bytes`, { expected: 'a submission.created payload', received: `${ctx.excerpt(delivery.rawBody.toString('utf8'), 80)}…`, exchange: answer });
  }
  const signature = delivery.headers['x-webhook-signature'];
  if (!(await verify(hook.secret, delivery.rawBody, Array.isArray(signature) ? signature[0] : signature))) {
    ctx.observe('webhook-round-trip', operationId, 'the signature does not verify over the raw body', { expected: 'sha256=HMAC(secret, raw body)', received: ctx.excerpt(String(signature ?? 'no X-Webhook-Signature header')), exchange: answer });
  }
  if (delivery.headers[hook.header.name.toLowerCase()] !== hook.header.value) {
    ctx.observe('webhook-round-trip', operationId, `the custom header ${hook.header.name} was not sent`, { expected: hook.header.value, received: ctx.excerpt(String(delivery.headers[hook.header.name.toLowerCase()] ?? 'absent')) });
  }
  const contentType = String(delivery.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json')) ctx.observe('webhook-round-trip', operationId, 'the webhook is not JSON', { expected: 'application/json', received: ctx.excerpt(contentType) || 'none' });
  let payload: unknown;
  try {
    payload = JSON.parse(delivery.rawBody.toString('utf8'));
  } catch {
    return ctx.observe('webhook-round-trip', operationId, 'the webhook body is not JSON', { expected: 'JSON', received: ctx.excerpt(delivery.rawBody.toString('utf8')) });
  }
  const valid = ctx.spec.validator.validateWebhookPayload(payload);
  if (!valid.valid) {
    ctx.fail({ kind: 'schema', operationId: 'submissionCreatedWebhook', message: 'submission.created payload does not match its schema', expected: 'a payload valid against the webhook schema', received: describeErrors(valid.errors), schemaErrors: valid.errors });
  }

  await expectDispatchRecorded(ctx, hook.integrationId);
}

/** Whether an event of the events list, in the spec's shape or the service's, records a successful dispatch. */
const isSuccess = (event: unknown): boolean => typeof event === 'object' && event !== null && String((event as { status?: unknown }).status).toLowerCase() === 'success';

/**
 * Reads the integration's events until one records a successful dispatch. The list is judged like
 * any response (its schema errors are matched against the ledger), then read leniently, so a
 * known difference of shape does not hide whether the dispatch was recorded.
 */
async function expectDispatchRecorded(ctx: CheckContext, integrationId: number): Promise<void> {
  // The dispatch is recorded after the receiver answered; give the tenant a moment.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt > 0) await sleep(1_000, ctx.signal);
    const events = await listEvents(ctx, integrationId);
    const list = ctx.json(events);
    if (list.ok && Array.isArray(list.value) && list.value.some(isSuccess)) {
      ctx.expectResponse(events, { operationId: 'listIntegrationEvents', status: 200 });
      return;
    }
    if (attempt === 4) {
      ctx.expectResponse(events, { operationId: 'listIntegrationEvents', status: 200 });
      ctx.observe('dispatch-not-recorded', 'listIntegrationEvents', 'no successful dispatch in the events list', { expected: 'an event with status success', received: ctx.excerpt(events.responseBody, 300), exchange: events });
    }
  }
}

const listEvents = (ctx: CheckContext, integrationId: number) =>
  ctx.send(() => ctx.client().GET(OPERATIONS.listIntegrationEvents.path, { params: { path: { form: ctx.target.ids.formId, integrationid: integrationId } } }));

/** How long to wait for a webhook that must not come. */
const QUIET_MS = 3_000;

/**
 * An active integration whose logic no submission of the suite meets: nothing may be sent, and
 * (the contract's events being dispatches) nothing recorded.
 */
async function filteredOutSubmission(ctx: CheckContext): Promise<void> {
  const fields = await formFields(ctx);
  const text = fields.find((f) => f.type === 'text');
  if (!text) return ctx.skip('the form has no text field for a webhook condition');
  const marker = `never-${Date.now()}`;
  const logic = { operatorIdentifier: 'and', children: [{ identifier: text.id, value: { operator: 'equals', property_meta: { id: text.id, type: 'text' }, value: marker } }] };
  const hook = await setUpWebhook(ctx, { logic });
  const mark = hook.receiver.received.length;
  const answer = await send(ctx, { path: { form: ctx.target.ids.formId }, body: answersFor(fields, `rt-${Date.now()}`) });
  if (ctx.expectResponse(answer, { operationId, status: 200 }) === undefined || answer.status !== 200) return;
  const delivery = await hook.receiver.waitFor(mark, QUIET_MS, ctx.signal);
  if (delivery) ctx.observe('logic-ignored', operationId, 'a submission the integration logic excludes was sent', { expected: `no request within ${QUIET_MS} ms`, received: `${delivery.method} ${delivery.path}`, exchange: answer });
  const events = await listEvents(ctx, hook.integrationId);
  const list = ctx.expectResponse(events, { operationId: 'listIntegrationEvents', status: 200 });
  if (!delivery && Array.isArray(list) && list.some(isSuccess)) {
    ctx.observe('success-event-without-delivery', 'listIntegrationEvents', 'a successful dispatch is recorded although nothing was sent', { expected: 'no event (nothing was dispatched)', received: ctx.excerpt(events.responseBody, 300), exchange: events });
  }
}

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
    {
      name: 'unknown form: 404',
      operationId,
      on: 'live',
      async run(ctx) {
        ctx.expectResponse(await send(ctx, { path: { form: 'no-such-form-contract-test' } }), { operationId, status: 404 });
      },
    },
    { name: 'webhook round trip', operationId, on: 'live', writes: true, run: webhookRoundTrip },
    { name: 'a submission the webhook logic excludes: nothing sent, nothing recorded', operationId, on: 'live', writes: true, run: filteredOutSubmission },
  ],
};
