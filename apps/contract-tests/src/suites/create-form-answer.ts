// createFormAnswer (public) beyond the derived checks (its documented statuses, 404 on an unknown
// form): with --write the webhook round trip: answer -> signed submission.created at the
// suite's receiver -> signature and payload checked -> a `success` dispatch in the events list;
// the webhook of an answer with no value, of a partial answer, and of a public edit.
import { OPERATIONS, type components } from '@forms-api/types';
import { verify } from '@forms-api/webhook-verify';
import { describeErrors, type CheckContext } from '../check-context.js';
import { setUpWebhook } from '../webhooks/round-trip.js';
import { handSuite, operationSender, setupFailed } from './common.js';
import type { ReceivedWebhook } from '../webhooks/receiver.js';
import { formFields, jsonType, sleep } from './helpers.js';

type FormField = components['schemas']['FormField'];
type AnswerRequest = components['schemas']['AnswerRequest'];
type AnswerValue = components['schemas']['AnswerValue'];
const operationId = 'createFormAnswer';
const DELIVERY_TIMEOUT_MS = 15_000;
/** How long to wait for a webhook that must not come. */
const QUIET_MS = 3_000;

const send = operationSender(operationId);

/** A plausible answer for each field the form defines (required ones must be valid). */
export function answersFor(fields: FormField[], marker: string): AnswerRequest {
  const answers: AnswerRequest = { completion_time: 5 };
  for (const field of fields) {
    const option = (field.select ?? field.multi_select)?.options[0]?.name;
    const value: AnswerValue | undefined = (() => {
      switch (field.type) {
        case 'text':
        case 'rich_text':
          return `${field.name} ${marker}`;
        case 'email':
          return 'contract-test@example.com';
        case 'url':
          return 'https://example.com/contract-test';
        case 'number':
        case 'rating':
        case 'scale':
        case 'slider':
          return 1;
        case 'checkbox':
          return true;
        case 'date':
          return new Date().toISOString().slice(0, 10);
        case 'phone_number':
          return '+15555550100';
        case 'select':
          return option;
        case 'multi_select':
          return option ? [option] : undefined;
        default:
          return undefined;
      }
    })();
    if (value !== undefined && !field.type.startsWith('nf-')) answers[field.id] = value;
  }
  return answers;
}

/**
 * Answers form `formId` once through the public endpoint and finds the submission it made (by a
 * marker in its text answers, since the answer names it by its public UUID only): its id.
 */
export async function answerOnce(ctx: CheckContext, formId: number, marker: string): Promise<number> {
  const answered = await send(ctx, {
    path: { form: formId },
    body: answersFor(await formFields(ctx, formId), marker),
  });
  if (answered.status !== 200)
    return setupFailed(
      `could not answer the form to make a submission (status ${answered.status ?? 'none'})`,
      answered,
    );
  const listed = await operationSender('listFormSubmissions')(ctx, { path: { id: formId }, query: { per_page: 20 } });
  const parsed = ctx.json(listed);
  const rows = parsed.ok ? ((parsed.value as { data?: Array<{ id?: unknown; data?: unknown }> }).data ?? []) : [];
  const made = rows.find((row) => JSON.stringify(row.data ?? {}).includes(marker));
  if (typeof made?.id !== 'number')
    return setupFailed('the submission just made is not among the newest 20 of the form', listed);
  return made.id;
}

/**
 * Text whose bytes a sender that re-serialises the payload after signing would change: non-ASCII
 * (accented, CJK, an emoji outside the BMP), `/` (PHP's json_encode writes `\/` unless told not
 * to), `<>&'"`, a backslash, a literal `\u00e9` (a double-decoding sender makes it é) and U+2028
 * (the service writes it as `\u2028`). Nothing to trim at either end and no control character:
 * the service stores a text answer as sent, so its webhook must carry it unchanged.
 */
export const RESERIALISED_TEXT = 'é 漢字 😀 a/b </p> & \' " back\\slash \\u00e9 line\u2028break';

/**
 * That text, numbered, 600 times: about 40 KB in the payload, which carries it twice, so the body
 * is past 64 KiB and no reader takes it in one read: a sender that signs (or a receiver that
 * verifies) only what its first read holds fails, as does one that cuts long values.
 */
export const LONG_TEXT = Array.from({ length: 600 }, (_, i) => `${i} ${RESERIALISED_TEXT}`).join(' ');

async function webhookRoundTrip(ctx: CheckContext): Promise<void> {
  const hook = await setUpWebhook(ctx);
  const marker = `rt-${Date.now()}`;
  const mark = hook.receiver.received.length;
  const fields = await formFields(ctx);
  const body = answersFor(fields, marker);
  // The text answers carry the bytes a re-serialising sender would change; the first is long.
  const texts = fields.filter((f) => f.type === 'text' && f.id in body);
  for (const [n, field] of texts.entries())
    body[field.id] = `${field.name} ${marker} ${n === 0 ? LONG_TEXT : RESERIALISED_TEXT}`;
  const answer = await send(ctx, { path: { form: ctx.target.ids.formId }, body });
  if (ctx.expectResponse(answer, { operationId, status: 200 }) === undefined || answer.status !== 200) return;

  const delivery = await hook.receiver.waitFor(mark, DELIVERY_TIMEOUT_MS, ctx.signal);
  if (!delivery)
    return ctx.observe('webhook-round-trip', operationId, 'no submission.created request reached the receiver', {
      expected: `a POST within ${DELIVERY_TIMEOUT_MS} ms`,
      received: 'nothing',
      exchange: answer,
    });

  if (delivery.bodyLimit !== undefined) {
    return ctx.observe(
      'webhook-round-trip',
      operationId,
      `the webhook body is longer than ${delivery.bodyLimit} bytes`,
      {
        expected: 'a submission.created payload',
        received: `${ctx.excerpt(delivery.rawBody.toString('utf8'), 80)}…`,
        exchange: answer,
      },
    );
  }
  const signature = delivery.headers['x-webhook-signature'];
  if (!(await verify(hook.secret, delivery.rawBody, Array.isArray(signature) ? signature[0] : signature))) {
    ctx.observe('webhook-round-trip', operationId, 'the signature does not verify over the raw body', {
      expected: 'sha256=HMAC(secret, raw body)',
      received: ctx.excerpt(String(signature ?? 'no X-Webhook-Signature header')),
      exchange: answer,
    });
  }
  if (delivery.headers[hook.header.name.toLowerCase()] !== hook.header.value) {
    ctx.observe('webhook-round-trip', operationId, `the custom header ${hook.header.name} was not sent`, {
      expected: hook.header.value,
      received: ctx.excerpt(String(delivery.headers[hook.header.name.toLowerCase()] ?? 'absent')),
    });
  }
  const contentType = String(delivery.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json'))
    ctx.observe('webhook-round-trip', operationId, 'the webhook is not JSON', {
      expected: 'application/json',
      received: ctx.excerpt(contentType) || 'none',
    });
  const payload = expectValidPayload(ctx, delivery);
  if (!payload) return;
  for (const field of texts) {
    // `submission` is keyed by name: of fields sharing a name, the service keeps the last one's answer.
    const byName = fields.filter((f) => f.name === field.name).length === 1;
    expectAnswerCarried(ctx, payload, field, body[field.id], byName);
  }

  await expectDispatchRecorded(ctx, hook.integrationId);
}

/** The payload carries a text answer as it was sent, by field id (`data`) and (`byName`) by name (`submission`). */
function expectAnswerCarried(
  ctx: CheckContext,
  payload: Record<string, unknown>,
  field: FormField,
  sent: unknown,
  byName: boolean,
) {
  const { data, submission } = payload as {
    data?: Record<string, { value?: unknown }>;
    submission?: Record<string, unknown>;
  };
  for (const [where, carried] of [
    [`data["${field.id}"].value`, data?.[field.id]?.value],
    ...(byName ? [[`submission["${field.name}"]`, submission?.[field.name]] as const] : []),
  ]) {
    if (carried !== sent)
      ctx.observe('webhook-answer-changed', operationId, `${where} is not the answer as sent`, {
        expected: ctx.excerpt(JSON.stringify(sent)),
        received: ctx.excerpt(JSON.stringify(carried) ?? 'absent'),
      });
  }
}

/** The delivery's payload, judged against the webhook schema (undefined when it is not JSON). */
function expectValidPayload(ctx: CheckContext, delivery: ReceivedWebhook): Record<string, unknown> | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(delivery.rawBody.toString('utf8'));
  } catch {
    ctx.observe('webhook-round-trip', operationId, 'the webhook body is not JSON', {
      expected: 'JSON',
      received: ctx.excerpt(delivery.rawBody.toString('utf8')),
    });
    return undefined;
  }
  const valid = ctx.spec.validator.validateWebhookPayload(payload);
  if (!valid.valid) {
    ctx.fail({
      kind: 'schema',
      operationId: 'submissionCreatedWebhook',
      message: 'submission.created payload does not match its schema',
      expected: 'a payload valid against the webhook schema',
      received: describeErrors(valid.errors),
      schemaErrors: valid.errors,
    });
  }
  return payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
}

/**
 * Open public forms of the target's workspace (its first page), the target's form first: the forms
 * an answer can be posted to (with --own-form, the run's form alone).
 */
async function openPublicForms(ctx: CheckContext): Promise<number[]> {
  // --own-form: no form of the user's is answered (each answer reaches its receivers).
  if (ctx.target.ownForm) return [ctx.target.ids.formId];
  const list = await ctx.send(() =>
    ctx.client().GET(OPERATIONS.listWorkspaceForms.path, {
      params: { path: { workspaceId: ctx.target.ids.workspaceId }, query: { per_page: 100 } },
    }),
  );
  const parsed = ctx.json(list);
  const forms = parsed.ok
    ? ((parsed.value as { data?: Array<{ id?: unknown; visibility?: unknown; is_closed?: unknown }> } | null)?.data ??
      [])
    : [];
  const others = forms
    .filter(
      (f) =>
        typeof f.id === 'number' && f.id !== ctx.target.ids.formId && f.visibility === 'public' && f.is_closed !== true,
    )
    .map((f) => f.id as number);
  return [ctx.target.ids.formId, ...others];
}

/** A form of the target's workspace whose fields are all optional (so an answer may leave every one blank). */
async function formWithoutRequiredFields(ctx: CheckContext): Promise<number> {
  for (const formId of await openPublicForms(ctx)) {
    const fields = await formFields(ctx, formId);
    if (fields.some((f) => !f.type.startsWith('nf-')) && !fields.some((f) => f.required)) return formId;
  }
  return ctx.skip(
    ctx.target.ownForm
      ? "the run's form (--own-form) has a required field: an answer with no value needs a form whose fields are all optional"
      : `no open form of workspace ${ctx.target.ids.workspaceId} has only optional fields (an answer with no value needs one)`,
  );
}

/**
 * An answer that leaves every field blank still creates a submission, and its webhook's
 * `submission` is the contract's object of the answers, empty.
 */
async function answerWithNoValue(ctx: CheckContext): Promise<void> {
  const formId = await formWithoutRequiredFields(ctx);
  const hook = await setUpWebhook(ctx, { formId });
  const mark = hook.receiver.received.length;
  const answer = await send(ctx, { path: { form: formId }, body: { completion_time: 5 } });
  if (ctx.expectResponse(answer, { operationId, status: 200 }) === undefined || answer.status !== 200) return;
  const delivery = await hook.receiver.waitFor(mark, DELIVERY_TIMEOUT_MS, ctx.signal);
  if (!delivery)
    return ctx.observe('webhook-round-trip', operationId, 'no submission.created request reached the receiver', {
      expected: `a POST within ${DELIVERY_TIMEOUT_MS} ms`,
      received: 'nothing',
      exchange: answer,
    });
  const payload = expectValidPayload(ctx, delivery) as { submission?: unknown } | undefined;
  if (
    payload &&
    (payload.submission === null || typeof payload.submission !== 'object' || Array.isArray(payload.submission))
  ) {
    ctx.observe(
      'webhook-answers-not-an-object',
      operationId,
      'the webhook of an answer with no value does not send its answers as an object',
      {
        expected: '"submission": {}',
        received: ctx.excerpt(JSON.stringify(payload.submission) ?? 'absent'),
        exchange: answer,
        // The service's empty PHP array; any other shape there is another defect.
        symptom: {
          at: ['/submission'],
          received: [
            Array.isArray(payload.submission) && payload.submission.length === 0
              ? 'empty-array'
              : jsonType(payload.submission),
          ],
        },
      },
    );
  }
}

/**
 * A partial answer creates a submission (the contract: each filling produces a submission,
 * completed or partial), so it is announced with submission.created like any other.
 */
async function partialAnswer(ctx: CheckContext): Promise<void> {
  const hook = await setUpWebhook(ctx);
  const mark = hook.receiver.received.length;
  const body = answersFor(await formFields(ctx), `partial-${Date.now()}`);
  body.is_partial = true;
  const answer = await send(ctx, { path: { form: ctx.target.ids.formId }, body });
  const accepted = ctx.expectResponse(answer, { operationId, status: 200 });
  if (accepted === undefined || answer.status !== 200) return;
  // A service that does not take partials on this form saves a completed submission instead.
  if (!(accepted && typeof accepted === 'object' && 'submission_hash' in accepted))
    return ctx.skip(`form ${ctx.target.ids.formId} takes no partial submissions (the answer was saved as completed)`);
  const delivery = await hook.receiver.waitFor(mark, QUIET_MS, ctx.signal);
  if (!delivery) {
    ctx.observe(
      'partial-sends-no-webhook',
      operationId,
      'a partial submission was created and no submission.created was sent',
      { expected: `a POST within ${QUIET_MS} ms`, received: 'nothing', exchange: answer },
    );
  }
}

/** How many forms of the workspace, besides the target's, the public edit check tries. */
const EDIT_CANDIDATES = 5;

/**
 * An answer that names an existing submission by its public id: the contract lists no event for
 * updates, so the submission it names is not announced again as created. Tried on the target's
 * form, then on the workspace's other open forms until one takes the edit (a form that does not
 * saves a new submission, with a new id: nothing to see there).
 */
async function publicEdit(ctx: CheckContext): Promise<void> {
  for (const formId of (await openPublicForms(ctx)).slice(0, 1 + EDIT_CANDIDATES)) {
    const fields = await formFields(ctx, formId);
    const hook = await setUpWebhook(ctx, { formId });
    const mark = hook.receiver.received.length;
    const first = await send(ctx, { path: { form: formId }, body: answersFor(fields, `edit-${Date.now()}`) });
    // Another form may refuse the suite's plausible answer (a captcha, a rule of its own): try the next.
    if (first.status !== 200 && formId !== ctx.target.ids.formId) continue;
    const accepted = ctx.expectResponse(first, { operationId, status: 200 });
    const publicId =
      accepted && typeof accepted === 'object' ? (accepted as { submission_id?: unknown }).submission_id : undefined;
    if (first.status !== 200 || typeof publicId !== 'string') continue;
    const created = await hook.receiver.waitFor(mark, DELIVERY_TIMEOUT_MS, ctx.signal);
    if (!created)
      return ctx.observe('webhook-round-trip', operationId, 'no submission.created request reached the receiver', {
        expected: `a POST within ${DELIVERY_TIMEOUT_MS} ms`,
        received: 'nothing',
        exchange: first,
      });
    const createdId = expectValidPayload(ctx, created)?.submission_id;
    const next = hook.receiver.received.length;
    const edited = answersFor(fields, `edited-${Date.now()}`);
    edited.submission_id = publicId;
    const edit = await send(ctx, { path: { form: formId }, body: edited });
    if (ctx.expectResponse(edit, { operationId, status: 200 }) === undefined || edit.status !== 200) return;
    const again = await hook.receiver.waitFor(next, QUIET_MS, ctx.signal);
    const againId = again ? expectValidPayload(ctx, again)?.submission_id : undefined;
    if (again && againId !== undefined && againId === createdId) {
      return ctx.observe(
        'answer-resends-webhook-for-existing-submission',
        operationId,
        `editing submission ${String(createdId)} of form ${formId} through the public endpoint sent submission.created for it again`,
        {
          expected: 'no second submission.created for the same submission_id',
          received: `submission.created for submission_id ${String(againId)}`,
          exchange: edit,
        },
      );
    }
  }
}

/** Whether an event of the events list, in the spec's shape or the service's, records a successful dispatch. */
const isSuccess = (event: unknown): boolean =>
  typeof event === 'object' &&
  event !== null &&
  String((event as { status?: unknown }).status).toLowerCase() === 'success';

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
      ctx.observe('dispatch-not-recorded', 'listIntegrationEvents', 'no successful dispatch in the events list', {
        expected: 'an event with status success',
        received: ctx.excerpt(events.responseBody, 300),
        exchange: events,
      });
    }
  }
}

const listEvents = (ctx: CheckContext, integrationId: number) =>
  ctx.send(() =>
    ctx.client().GET(OPERATIONS.listIntegrationEvents.path, {
      params: { path: { form: ctx.target.ids.formId, integrationid: integrationId } },
    }),
  );

/**
 * An active integration whose logic no submission of the suite meets: nothing may be sent, and
 * (the contract's events being dispatches) nothing recorded.
 */
async function filteredOutSubmission(ctx: CheckContext): Promise<void> {
  const fields = await formFields(ctx);
  const text = fields.find((f) => f.type === 'text');
  if (!text) return ctx.skip('the form has no text field for a webhook condition');
  const marker = `never-${Date.now()}`;
  const logic = {
    operatorIdentifier: 'and',
    children: [
      {
        identifier: text.id,
        value: { operator: 'equals', property_meta: { id: text.id, type: 'text' }, value: marker },
      },
    ],
  };
  const hook = await setUpWebhook(ctx, { logic });
  const mark = hook.receiver.received.length;
  const answer = await send(ctx, {
    path: { form: ctx.target.ids.formId },
    body: answersFor(fields, `rt-${Date.now()}`),
  });
  if (ctx.expectResponse(answer, { operationId, status: 200 }) === undefined || answer.status !== 200) return;
  const delivery = await hook.receiver.waitFor(mark, QUIET_MS, ctx.signal);
  if (delivery)
    ctx.observe('logic-ignored', operationId, 'a submission the integration logic excludes was sent', {
      expected: `no request within ${QUIET_MS} ms`,
      received: `${delivery.method} ${delivery.path}`,
      exchange: answer,
    });
  const events = await listEvents(ctx, hook.integrationId);
  const list = ctx.expectResponse(events, { operationId: 'listIntegrationEvents', status: 200 });
  const recorded = Array.isArray(list) ? list.filter(isSuccess) : [];
  if (!delivery && recorded.length > 0) {
    ctx.observe(
      'success-event-without-delivery',
      'listIntegrationEvents',
      'a successful dispatch is recorded although nothing was sent',
      {
        expected: 'no event (nothing was dispatched)',
        received: ctx.excerpt(events.responseBody, 300),
        exchange: events,
        // The status as the tenant words it: the service's `Success` is known, another wording is not.
        symptom: { received: recorded.map((event) => String((event as { status: unknown }).status)) },
      },
    );
  }
}

/** An answer that leaves out a required field is refused, 422, and makes nothing. */
async function requiredFieldLeftOut(ctx: CheckContext): Promise<void> {
  const fields = await formFields(ctx);
  if (!fields.some((f) => (f as { required?: boolean }).required))
    return ctx.skip(`form ${ctx.target.ids.formId} has no required field to leave out`);
  ctx.expectResponse(await send(ctx, { path: { form: ctx.target.ids.formId }, body: { completion_time: 5 } }), {
    operationId,
    status: 422,
  });
}

/** A closed form of the workspace refuses an answer, 403 (the workspace's own; none: skipped). */
async function closedFormRefuses(ctx: CheckContext): Promise<void> {
  if (ctx.target.ownForm)
    return ctx.skip(
      "--own-form: the run answers no form but its own (a closed form of the workspace is one of yours; a service that took the answer would send it to that form's receivers)",
    );
  const listed = await operationSender('listWorkspaceForms')(ctx, { query: { per_page: 100 } });
  const parsed = ctx.json(listed);
  const forms = parsed.ok
    ? ((parsed.value as { data?: Array<{ id?: unknown; visibility?: unknown }> }).data ?? [])
    : [];
  const closed = forms.find((f) => f.visibility === 'closed' && typeof f.id === 'number');
  if (!closed) return ctx.skip(`workspace ${ctx.target.ids.workspaceId} has no closed form among its first 100`);
  // Valid answers: the service checks them before it sees the form is closed.
  const body = answersFor(await formFields(ctx, closed.id as number), 'contract-closed-form');
  ctx.expectResponse(await send(ctx, { path: { form: closed.id as number }, body }), { operationId, status: 403 });
}

export const suite = handSuite({
  operationId,
  // Its happy path is the webhook round trip: an answer must fit the form.
  happyPath: false,
  unknown: { name: 'unknown form: 404' },
  checks: [
    { name: 'webhook round trip', operationId, on: 'live', writes: true, run: webhookRoundTrip },
    // Writes should the service accept them, hence --write.
    { name: 'a required field left out: 422', operationId, on: 'live', writes: true, run: requiredFieldLeftOut },
    { name: 'a closed form: 403', operationId, on: 'live', writes: true, run: closedFormRefuses },
    {
      name: 'a submission the webhook logic excludes: nothing sent, nothing recorded',
      operationId,
      on: 'live',
      writes: true,
      run: filteredOutSubmission,
    },
    {
      name: 'an answer with no value: the webhook sends its answers as an object',
      operationId,
      on: 'live',
      writes: true,
      run: answerWithNoValue,
    },
    { name: 'a partial answer: submission.created is sent', operationId, on: 'live', writes: true, run: partialAnswer },
    {
      name: 'a public edit of a submission: no second submission.created for it',
      operationId,
      on: 'live',
      writes: true,
      run: publicEdit,
    },
  ],
});
