// Webhook integrations and their events in `observed` against `contract`, over HTTP. In both (the
// spec follows the service where the contract is silent): status and integration_id are required
// on update, data is replaced wholesale, and a missing or unknown integration_id is 500 Server
// Error. Only observed refuses an Authorization custom header, lists events as {date, status,
// data} (a timeout is an Error with a cURL message), and records a Success when the logic sent
// nothing (form 15's VIP-only webhook).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, fieldIds, receiver, sandbox, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
beforeAll(async () => {
  sbs = await sideBySide();
});
afterAll(() => sbs.close());

const BOTH = ['observed', 'contract'] as const;
const SECRET = 'whsec_integration_tests';
const HOOK = 'https://hooks.example.com/forms';

const integrations = (sb: SandboxHandle, method: string, suffix: string, body?: unknown) =>
  call(sb.baseUrl, method, `/open/forms/11/integrations${suffix}`, {
    token: sb.tokens.integrations,
    ...(body !== undefined ? { body } : {}),
  });
const create = async (sb: SandboxHandle, data: Record<string, unknown>) => {
  const created = await integrations(sb, 'POST', '', { integration_id: 'webhook', status: 'active', data });
  expect(created.status).toBe(200);
  return created.body.form_integration.id as number;
};
const events = async (sb: SandboxHandle, formId: number, id: number) =>
  (await call(sb.baseUrl, 'GET', `/open/forms/${formId}/integrations/${id}/events`, { token: sb.tokens.integrations }))
    .body;
const answer = async (sb: SandboxHandle, formId: number, answers: Record<string, unknown>) => {
  const ids = await fieldIds(sb, formId);
  const body = Object.fromEntries(Object.entries(answers).map(([name, value]) => [ids[name]!, value]));
  expect((await call(sb.baseUrl, 'POST', `/forms/${formId}/answer`, { body })).status).toBe(200);
};
const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

describe('updating an integration', () => {
  it('requires status and integration_id in both; a missing or unknown integration_id is 500 Server Error before any validation', async () => {
    for (const which of BOTH) {
      const sb = sbs[which];
      const id = await create(sb, { webhook_url: HOOK });
      const noStatus = await integrations(sb, 'PUT', `/${id}`, {
        integration_id: 'webhook',
        data: { webhook_url: HOOK },
      });
      expect(noStatus.status, which).toBe(422);
      expect(Object.keys(noStatus.body.errors), which).toContain('status');
      // No integration_id, and an unknown one whose body is otherwise invalid too: 500 either way.
      for (const body of [
        { status: 'active', data: { webhook_url: HOOK } },
        { integration_id: 'carrier-pigeon', status: 'bogus', data: 1 },
      ]) {
        const failed = await integrations(sb, 'PUT', `/${id}`, body);
        expect(failed.status, `${which} ${JSON.stringify(body)}`).toBe(500);
        expect(failed.body, which).toEqual({ message: 'Server Error' });
      }
      expect(
        (await integrations(sb, 'POST', '', { status: 'active', data: { webhook_url: HOOK } })).status,
        which,
      ).toBe(500);
      // The service's exception handler pretty-prints it; the contract sandbox answers compactly.
      const text = (await integrations(sb, 'POST', '', {})).text;
      expect(text, which).toBe(
        which === 'observed' ? '{\n    "message": "Server Error"\n}' : '{"message":"Server Error"}',
      );
    }
  });

  it('replaces data wholesale in both: a secret and headers not sent again are gone', async () => {
    for (const which of BOTH) {
      const sb = sbs[which];
      const id = await create(sb, {
        webhook_url: HOOK,
        webhook_secret: SECRET,
        webhook_headers: { 'X-Api-Key': 'k-1' },
      });
      const updated = await integrations(sb, 'PUT', `/${id}`, {
        integration_id: 'webhook',
        status: 'inactive',
        data: { webhook_url: `${HOOK}/v2` },
      });
      expect(updated.status, which).toBe(200);
      const { form_integration: saved } = updated.body;
      expect(saved, which).toMatchObject({ id, status: 'inactive', data: { webhook_url: `${HOOK}/v2` } });
      expect(saved.data, which).not.toHaveProperty('webhook_secret');
      // Contract presents absent headers as {}, observed leaves the key out.
      if (which === 'contract') expect(saved.data.webhook_headers).toEqual({});
      else expect(saved.data).not.toHaveProperty('webhook_headers');
    }
  });

  it('webhook-authorization-header-refused: observed refuses an Authorization custom header (any case), on create and update; contract accepts it', async () => {
    const sent = (name: string) => ({
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: HOOK, webhook_headers: { [name]: 'Bearer receiver-key' } },
    });
    for (const name of ['Authorization', 'authorization']) {
      const refused = await integrations(sbs.observed, 'POST', '', sent(name));
      expect(refused.status, name).toBe(422);
      expect(refused.body.errors, name).toEqual({
        'data.webhook_headers': [`The '${name}' header cannot be customized for security reasons.`],
      });
    }
    const id = await create(sbs.observed, { webhook_url: HOOK });
    expect((await integrations(sbs.observed, 'PUT', `/${id}`, sent('Authorization'))).status).toBe(422);
    const accepted = await integrations(sbs.contract, 'POST', '', sent('Authorization'));
    expect(accepted.status).toBe(200);
    expect(accepted.body.form_integration.data.webhook_headers).toEqual({ Authorization: 'Bearer receiver-key' });
    // A name the spec lists is refused in both.
    expect((await integrations(sbs.contract, 'POST', '', sent('X-Webhook-Signature'))).status).toBe(422);
  });
});

describe('the events list (events-shape)', () => {
  it('is [{date: "YYYY-MM-DD HH:MM", status: Success|Error, data}] in observed; the documented seven properties in contract', async () => {
    for (const which of BOTH) {
      const sb = sbs[which];
      const [ok, refusing] = [await receiver(200), await receiver(500)];
      try {
        const good = await create(sb, { webhook_url: ok.url, webhook_secret: SECRET });
        const bad = await create(sb, { webhook_url: refusing.url });
        await answer(sb, 11, { Name: 'Ada', Email: 'ada@example.com' });
        // Observed deliveries are queued (sent after the answer): wait for both events.
        await expect.poll(async () => (await events(sb, 11, good)).length + (await events(sb, 11, bad)).length).toBe(2);
        const [success, failure] = [await events(sb, 11, good), await events(sb, 11, bad)];
        if (which === 'observed') {
          expect(success).toEqual([{ date: expect.stringMatching(DATE), status: 'Success', data: {} }]);
          // jsonb keeps keys by length: status, message, response.
          expect(failure).toEqual([
            {
              date: expect.stringMatching(DATE),
              status: 'Error',
              data: {
                status: 500,
                message: 'HTTP request returned status code 500:\nreceiver refused\n',
                response: null,
              },
            },
          ]);
          expect(Object.keys(failure[0].data)).toEqual(['status', 'message', 'response']);
        } else {
          expect(success).toMatchObject([
            {
              integration_id: good,
              event: 'submission.created',
              status: 'success',
              response_code: 200,
              error_message: null,
            },
          ]);
          expect(failure).toMatchObject([{ integration_id: bad, status: 'failed', response_code: 500 }]);
          expect(Object.keys(success[0])).toEqual([
            'id',
            'integration_id',
            'event',
            'status',
            'response_code',
            'error_message',
            'created_at',
          ]);
        }
        await integrations(sb, 'DELETE', `/${good}`);
        await integrations(sb, 'DELETE', `/${bad}`);
      } finally {
        await Promise.all([ok.close(), refusing.close()]);
      }
    }
  });

  it('records a timeout as an Error with a cURL-like message in observed; as timeout in contract', async () => {
    for (const which of BOTH) {
      const sb = await sandbox({ behaviour: which, webhookTimeoutMs: 300 });
      const rx = await receiver('hang');
      try {
        const id = await create(sb, { webhook_url: rx.url });
        await answer(sb, 11, { Name: 'Ada', Email: 'ada@example.com' });
        await expect.poll(async () => (await events(sb, 11, id)).length).toBe(1);
        const [event] = await events(sb, 11, id);
        if (which === 'observed') {
          expect(event).toEqual({
            date: expect.stringMatching(DATE),
            status: 'Error',
            data: { message: expect.any(String) },
          });
          expect(event.data.message).toMatch(
            /^cURL error 28: Operation timed out after 300 milliseconds .* for http:\/\/127\.0\.0\.1:\d+\/hook$/,
          );
        } else {
          expect(event).toMatchObject({ status: 'timeout', response_code: null });
        }
      } finally {
        await rx.close();
        await sb.close();
      }
    }
  });

  it('webhook-success-recorded-without-dispatch: a submission the logic filters out is a Success in observed (nothing sent); no event in contract', async () => {
    // Seed integration 1 of form 15 sends only Tier = VIP, to an address that cannot be reached.
    for (const which of BOTH) {
      const sb = sbs[which];
      expect(await events(sb, 15, 1), which).toEqual([]);
      await answer(sb, 15, { Name: 'Standard Sam', Tier: 'Standard' });
      const recorded = await events(sb, 15, 1);
      if (which === 'observed')
        expect(recorded).toEqual([{ date: expect.stringMatching(DATE), status: 'Success', data: {} }]);
      else expect(recorded).toEqual([]);
    }
  });
});
