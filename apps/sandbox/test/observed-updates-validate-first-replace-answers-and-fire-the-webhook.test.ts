// Updating a submission in `observed` against `contract`, over HTTP. Observed, as the service's
// AnswerFormRequest and StoreFormSubmissionJob do: the body is validated like a new answer (every
// required field, types, a captcha form's token) before the submission is looked up and before the
// ability is checked; the answers sent replace all others, completion_time is reset when not sent,
// the status becomes completed, the webhook fires again, and the answer is {type, message, data:
// <submission resource>}. Contract: 404 → 403 → 422, a patch, no webhook, the documented shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '@forms-api/webhook-verify';
import { call, fieldIds, receiver, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
let f11: Record<string, string>;
beforeAll(async () => {
  sbs = await sideBySide();
  // Field ids come from the same seed: the two sandboxes agree.
  f11 = await fieldIds(sbs.observed, 11);
  expect(await fieldIds(sbs.contract, 11)).toEqual(f11);
});
afterAll(() => sbs.close());

type Which = 'contract' | 'observed';
const put = (
  which: Which,
  formId: number,
  submission: number | string,
  body: unknown,
  token: string = sbs[which].tokens.write,
) =>
  call(sbs[which].baseUrl, 'PUT', `/open/forms/${formId}/submissions/${submission}`, {
    token,
    body,
    ...(which === 'contract' ? { operationId: 'updateFormSubmission' } : {}),
  });
const newest = async (which: Which, formId: number, query = '') =>
  (
    await call(sbs[which].baseUrl, 'GET', `/open/forms/${formId}/submissions?per_page=1${query}`, {
      token: sbs[which].tokens.read,
    })
  ).body.data[0];
/** A submission as the list shows it, found by its id on whichever page it is. */
async function listed(which: Which, formId: number, id: number) {
  for (let page = 1; ; page++) {
    const { body } = await call(
      sbs[which].baseUrl,
      'GET',
      `/open/forms/${formId}/submissions?per_page=100&page=${page}`,
      { token: sbs[which].tokens.read },
    );
    const found = body.data.find((s: { id: number }) => s.id === id);
    if (found || page >= body.meta.last_page) return found;
  }
}
const valid = () => ({ [f11.Name!]: 'Ada Lovelace', [f11.Email!]: 'ada@example.com' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the order of checks (update-submission-validates-before-authorising)', () => {
  it('observed: 422 before 404 before 403; contract: 404 before 403 before 422', async () => {
    const existing = (await newest('observed', 11)).id as number;
    const read = (which: Which) => sbs[which].tokens.read; // lacks forms-write
    const cases: Array<[string, number | string, unknown, number, number]> = [
      // what, submission, body, observed, contract
      ['unknown submission, body without the required fields', 999999, {}, 422, 404],
      ['unknown submission, valid body', 999999, valid(), 404, 404],
      ['existing submission, valid body', existing, valid(), 403, 403],
      ['existing submission, an invalid email', existing, { ...valid(), [f11.Email!]: 'not-an-email' }, 422, 403],
    ];
    for (const [what, submission, body, observedStatus, contractStatus] of cases) {
      expect((await put('observed', 11, submission, body, read('observed'))).status, what).toBe(observedStatus);
      expect((await put('contract', 11, submission, body, read('contract'))).status, what).toBe(contractStatus);
    }
    // A non-member is answered on the body first too.
    expect((await put('observed', 11, existing, {}, sbs.observed.tokens.outsider)).status).toBe(422);
    // An unknown form is 404 before anything in both (route binding).
    for (const which of ['observed', 'contract'] as const)
      expect((await put(which, 999, existing, {}, read(which))).status, which).toBe(404);
    // The 404 names the model, as the framework's handler does.
    expect((await put('observed', 11, 999999, valid(), read('observed'))).body).toEqual({
      message: 'No query results for model [App\\Models\\Forms\\FormSubmission].',
    });
  });

  it('update-submission-requires-every-required-field: observed refuses an update without every required field, with types checked; contract takes a partial body', async () => {
    const target = (await newest('observed', 11)).id as number;
    const missing = await put('observed', 11, target, { [f11.Topic!]: 'Sales' });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      message: 'The Name field is required. (and 1 more error)',
      errors: { [f11.Name!]: ['The Name field is required.'], [f11.Email!]: ['The Email field is required.'] },
    });
    const typed = await put('observed', 11, target, {
      [f11.Name!]: 42,
      [f11.Email!]: 'nope',
      [f11.Topic!]: 'Gardening',
    });
    expect(typed.status).toBe(422);
    expect(typed.body.errors).toEqual({
      [f11.Name!]: ['The Name must be a valid text.'],
      [f11.Email!]: ['The Email must be a valid email address.'],
      [f11.Topic!]: ['The selected Topic is invalid.'],
    });
    expect((await put('contract', 11, target, { [f11.Topic!]: 'Sales' })).status).toBe(200);
    // Keys that are not fields: dropped in observed, refused in contract.
    expect((await put('observed', 11, target, { ...valid(), not_a_field: 1 })).status).toBe(200);
    expect((await put('contract', 11, target, { ...valid(), not_a_field: 1 })).status).toBe(422);
  });
});

describe('what an update makes of a submission (update-submission-replaces-all-answers)', () => {
  it('observed replaces every answer and resets completion_time when not sent; contract changes only the fields sent', async () => {
    // Page 40 of the completed ones: a submission no other test of this file touches.
    const query = '&status=completed&page=40';
    for (const which of ['observed', 'contract'] as const) {
      const before = await newest(which, 11, query);
      expect(before.completion_time, which).not.toBeNull();
      expect(before.data[f11.Topic!], which).toBeDefined();
      const updated = await put(which, 11, before.id, valid());
      expect(updated.status, which).toBe(200);
      const after = await listed(which, 11, before.id);
      const answers = Object.fromEntries(
        Object.entries(after.data).filter(([k]) => !['status', 'created_at', 'id', 'submission_id'].includes(k)),
      );
      if (which === 'observed') {
        expect(answers).toEqual(valid());
        expect(after.completion_time).toBeNull();
      } else {
        expect(answers).toMatchObject({ ...valid(), [f11.Topic!]: before.data[f11.Topic!] });
        expect(after.completion_time).toBe(before.completion_time);
      }
    }
  });

  it('observed keeps the completion_time sent and stores an empty answer sent explicitly; contract clears it', async () => {
    const target = (await newest('observed', 11, '&status=completed&page=41')).id as number;
    const body = { ...valid(), [f11.Topic!]: null, completion_time: 77 };
    expect((await put('observed', 11, target, body)).body.data).toMatchObject({
      completion_time: 77,
      data: { ...valid(), [f11.Topic!]: null },
    });
    const contract = await put('contract', 11, target, body);
    expect(contract.status).toBe(200);
    expect(contract.body.data.data).not.toHaveProperty(f11.Topic!);
  });

  it('observed completes a partial submission; contract leaves its status', async () => {
    for (const which of ['observed', 'contract'] as const) {
      const partial = await newest(which, 11, '&status=partial');
      expect(partial.data.status).toBe('partial');
      expect((await put(which, 11, partial.id, valid())).status, which).toBe(200);
      const after = await listed(which, 11, partial.id);
      expect(after.data.status, which).toBe(which === 'observed' ? 'completed' : 'partial');
    }
  });
});

describe('the answer (update-submission-response-shape)', () => {
  it('is {type, message, data: <the submission as listed>} with the UUID in observed; the documented shape in contract', async () => {
    const target = await newest('observed', 11, '&status=completed&page=42');
    const observed = await put('observed', 11, target.id, { ...valid(), completion_time: 5 });
    expect(observed.status).toBe(200);
    expect(Object.keys(observed.body)).toEqual(['type', 'message', 'data']);
    expect(observed.body).toMatchObject({ type: 'success', message: 'Record successfully updated.' });
    expect(observed.body.data).toEqual(await listed('observed', 11, target.id));
    expect(observed.body.data).toMatchObject({
      id: target.id,
      form_id: 11,
      completion_time: 5,
      submission_id: target.submission_id,
      data: { ...valid(), status: 'completed', id: target.id, submission_id: target.submission_id },
    });
    expect(observed.body.data.submission_id).toMatch(UUID);
    expect(observed.body.data).not.toHaveProperty('submitted_at');

    const contract = await put('contract', 11, target.id, { ...valid(), completion_time: 5 });
    expect(Object.keys(contract.body)).toEqual(['message', 'data']);
    expect(contract.body.data).toMatchObject({
      submission_id: target.id,
      form_id: 11,
      submitted_at: expect.any(String),
      data: valid(),
    });
  });
});

describe('the webhook (update-submission-emits-webhook)', () => {
  it('fires again on an update in observed, signed like a new answer; never in contract', async () => {
    const f12 = await fieldIds(sbs.observed, 12);
    const secret = 'whsec_update_refires_it';
    for (const which of ['observed', 'contract'] as const) {
      const rx = await receiver(200);
      try {
        const sb = sbs[which];
        const created = await call(sb.baseUrl, 'POST', '/open/forms/12/integrations', {
          token: sb.tokens.all,
          body: { integration_id: 'webhook', status: 'active', data: { webhook_url: rx.url, webhook_secret: secret } },
        });
        expect(created.status, which).toBe(200);
        const target = await newest(which, 12, '&status=completed');
        expect(
          (await put(which, 12, target.id, { [f12['Full name']!]: 'Grace Hopper', [f12.Age!]: 85 })).status,
          which,
        ).toBe(200);
        if (which === 'contract') {
          expect(rx.deliveries).toHaveLength(0);
          continue;
        }
        // Queued, as on the service: the update's answer does not wait for the delivery.
        await expect.poll(() => rx.deliveries.length).toBe(1);
        const [delivery] = rx.deliveries;
        expect(await verify(secret, delivery!.raw, delivery!.headers['x-webhook-signature'] as string)).toBe(true);
        const payload = JSON.parse(delivery!.raw.toString('utf8'));
        // No hint that this is an update: the integer id and the new answers only.
        expect(payload).toMatchObject({
          form_id: 12,
          submission_id: target.id,
          submission: { 'Full name': 'Grace Hopper', Age: 85 },
        });
        expect(Object.keys(payload.data)).toEqual([f12['Full name'], f12.Age]);
        const events = await call(
          sb.baseUrl,
          'GET',
          `/open/forms/12/integrations/${created.body.form_integration.id}/events`,
          { token: sb.tokens.all },
        );
        expect(events.body).toMatchObject([{ status: 'Success' }]);
      } finally {
        await rx.close();
      }
    }
  });
});

describe('a captcha form (update-submission-captcha-token-required)', () => {
  it('observed demands the captcha token on an update of form 14 (and no token passes); contract updates it', async () => {
    const f14 = await fieldIds(sbs.observed, 14);
    const body = {
      [f14.Name!]: 'Ada',
      [f14.Email!]: 'ada@example.com',
      [f14['I accept the terms']!]: true,
      [f14.Experience!]: 4,
    };
    const target = (await newest('observed', 14)).id as number;
    const refused = await put('observed', 14, target, body);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: 'Please complete the captcha.',
      errors: { 'g-recaptcha-response': ['Please complete the captcha.'] },
    });
    const withToken = await put('observed', 14, target, { ...body, 'g-recaptcha-response': 'a-token-from-the-widget' });
    expect(withToken.status).toBe(422);
    expect(withToken.body.errors).toEqual({
      'g-recaptcha-response': ["Invalid CAPTCHA. Please prove you're not a bot."],
    });
    expect((await put('contract', 14, target, body)).status).toBe(200);
  });
});
