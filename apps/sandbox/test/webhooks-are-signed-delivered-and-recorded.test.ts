// Webhook dispatch over real HTTP: signed deliveries that verify with @forms-api/webhook-verify,
// failures, timeouts and dead receivers recorded as events, secret changes, inactive and deleted
// integrations, the SSRF guard, and 500 concurrent submissions delivered exactly once each.
import { afterEach, describe, expect, it } from 'vitest';
import { verify } from '@forms-api/webhook-verify';
import { createPayloadValidator } from '@forms-api/webhook-verify/validate';
import type { SandboxHandle } from '../src/index.js';
import { call, receiver, sandbox } from './support.js';

const SECRET = 'whsec_sandbox_test_secret';

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function contactFormAnswers(s: SandboxHandle, marker: string) {
  const form = (await call(s.baseUrl, 'GET', '/open/forms/11', { token: s.tokens.all })).body;
  const field = (name: string) => form.properties.find((p: { name: string }) => p.name === name).id as string;
  return {
    [field('Name')]: `Ada ${marker} é\u2028/`,
    [field('Email')]: 'ada@example.com',
    [field('Topic')]: 'Support',
    completion_time: 12,
  };
}

async function hook(s: SandboxHandle, url: string, data: Record<string, unknown> = {}, status = 'active') {
  const created = await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
    token: s.tokens.all,
    body: {
      integration_id: 'webhook',
      status,
      data: { webhook_url: url, webhook_secret: SECRET, webhook_headers: { 'X-API-Key': 'k-1' }, ...data },
    },
    operationId: 'createFormIntegration',
  });
  expect(created.status).toBe(200);
  return created.body.form_integration.id as number;
}

const answer = async (s: SandboxHandle, marker: string) =>
  call(s.baseUrl, 'POST', '/forms/11/answer', {
    body: await contactFormAnswers(s, marker),
    operationId: 'createFormAnswer',
  });
const events = async (s: SandboxHandle, id: number) =>
  (
    await call(s.baseUrl, 'GET', `/open/forms/11/integrations/${id}/events`, {
      token: s.tokens.all,
      operationId: 'listIntegrationEvents',
    })
  ).body;

describe('webhook dispatch', () => {
  it('delivers the exact signed bytes, with custom headers, and records a success', async () => {
    sb = await sandbox();
    const rx = await receiver(200);
    try {
      const id = await hook(sb, rx.url);
      expect((await answer(sb, 'one')).status).toBe(200);
      expect(rx.deliveries).toHaveLength(1);
      const [delivery] = rx.deliveries;
      expect(delivery!.headers['content-type']).toBe('application/json');
      expect(delivery!.headers['x-api-key']).toBe('k-1');
      expect(await verify(SECRET, delivery!.raw, delivery!.headers['x-webhook-signature'] as string)).toBe(true);
      const text = delivery!.raw.toString('utf8');
      expect(text).toContain('\\u2028'); // escaped like the service
      expect(text).toContain('é\\u2028/'); // non-ASCII and slashes unescaped
      const payload = JSON.parse(text);
      expect(createPayloadValidator()(payload)).toEqual([]);
      expect(payload).toMatchObject({ form_id: 11, form_title: 'Contact us', form_slug: 'contact-us-a1b2c3' });
      const listed = await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all });
      expect(payload.submission_id).toBe(listed.body.data[0].id);
      expect(await events(sb, id)).toMatchObject([
        { integration_id: id, event: 'submission.created', status: 'success', response_code: 200, error_message: null },
      ]);
    } finally {
      await rx.close();
    }
  });

  it('records a receiver answering 500 as failed with 500', async () => {
    sb = await sandbox();
    const rx = await receiver(500);
    try {
      const id = await hook(sb, rx.url);
      await answer(sb, 'two');
      expect(await events(sb, id)).toMatchObject([{ status: 'failed', response_code: 500 }]);
      expect((await events(sb, id))[0].error_message).toMatch(/500/);
    } finally {
      await rx.close();
    }
  });

  it('records a receiver that hangs as timeout', async () => {
    sb = await sandbox({ webhookTimeoutMs: 300 });
    const rx = await receiver('hang');
    try {
      const id = await hook(sb, rx.url);
      await answer(sb, 'three');
      expect(await events(sb, id)).toMatchObject([{ status: 'timeout', response_code: null }]);
    } finally {
      await rx.close();
    }
  });

  it('records a receiver that is down as failed with the error', async () => {
    sb = await sandbox();
    const rx = await receiver(200);
    await rx.close();
    const id = await hook(sb, rx.url);
    await answer(sb, 'four');
    const [event] = await events(sb, id);
    expect(event).toMatchObject({ status: 'failed', response_code: null });
    expect(event.error_message).toMatch(/fetch failed|ECONNREFUSED/);
  });

  it('applies a secret change to the next dispatch; sends a partial (the contract: every submission created); nothing when inactive, deleted or updated', async () => {
    sb = await sandbox();
    const rx = await receiver(200);
    try {
      const id = await hook(sb, rx.url);
      await call(sb.baseUrl, 'PUT', `/open/forms/11/integrations/${id}`, {
        token: sb.tokens.all,
        body: {
          integration_id: 'webhook',
          status: 'active',
          data: { webhook_url: rx.url, webhook_secret: 'whsec_rotated_secret_2' },
        },
        operationId: 'updateFormIntegration',
      });
      await answer(sb, 'five');
      expect(
        await verify(
          'whsec_rotated_secret_2',
          rx.deliveries[0]!.raw,
          rx.deliveries[0]!.headers['x-webhook-signature'] as string,
        ),
      ).toBe(true);
      expect(rx.deliveries[0]!.headers['x-api-key']).toBeUndefined(); // update replaced the data wholesale

      const submissionId = (
        await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all })
      ).body.data[0].id;
      await call(sb.baseUrl, 'PUT', `/open/forms/11/submissions/${submissionId}`, {
        token: sb.tokens.all,
        body: { completion_time: 99 },
        operationId: 'updateFormSubmission',
      });
      await call(sb.baseUrl, 'POST', '/forms/11/answer', {
        body: { ...(await contactFormAnswers(sb, 'partial')), is_partial: true },
        operationId: 'createFormAnswer',
      });
      expect(rx.deliveries).toHaveLength(2);
      await call(sb.baseUrl, 'PUT', `/open/forms/11/integrations/${id}`, {
        token: sb.tokens.all,
        body: { integration_id: 'webhook', status: 'inactive', data: { webhook_url: rx.url } },
      });
      await answer(sb, 'inactive');
      await call(sb.baseUrl, 'DELETE', `/open/forms/11/integrations/${id}`, {
        token: sb.tokens.all,
        operationId: 'deleteFormIntegration',
      });
      await answer(sb, 'deleted');
      expect(rx.deliveries).toHaveLength(2);
    } finally {
      await rx.close();
    }
  });

  it('refuses private and plain-http receivers unless private webhooks are allowed', async () => {
    sb = await sandbox({ allowPrivateWebhooks: false });
    for (const url of [
      'http://127.0.0.1:9/hook',
      'https://127.0.0.1/hook',
      'https://10.0.0.5/hook',
      'https://user:pw@hooks.example.com/x',
      'https://[::1]/hook',
    ]) {
      const result = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
        token: sb.tokens.all,
        body: { integration_id: 'webhook', status: 'active', data: { webhook_url: url } },
        operationId: 'createFormIntegration',
      });
      expect(result.status, url).toBe(422);
      expect(Object.keys(result.body.errors)).toContain('data.webhook_url');
    }
  });

  it('refuses blocked custom headers and short secrets', async () => {
    sb = await sandbox();
    const blocked = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: sb.tokens.all,
      body: {
        integration_id: 'webhook',
        status: 'active',
        data: { webhook_url: 'https://hooks.example.com/x', webhook_headers: { 'x-webhook-signature': 'forged' } },
      },
      operationId: 'createFormIntegration',
    });
    expect(blocked.status).toBe(422);
    expect(blocked.body.errors['data.webhook_headers'][0]).toMatch(/cannot be customized/);
    const short = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: sb.tokens.all,
      body: {
        integration_id: 'webhook',
        status: 'active',
        data: { webhook_url: 'https://hooks.example.com/x', webhook_secret: 'short' },
      },
      operationId: 'createFormIntegration',
    });
    expect(short.status).toBe(422);
  });

  it('delivers 500 concurrent submissions exactly once each, with 500 event records', async () => {
    sb = await sandbox();
    const rx = await receiver(200);
    try {
      const id = await hook(sb, rx.url);
      const body = await contactFormAnswers(sb, 'load');
      const results = await Promise.all(
        Array.from({ length: 500 }, () =>
          fetch(`${sb!.baseUrl}/forms/11/answer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }).then((r) => r.status),
        ),
      );
      expect(results.filter((s) => s === 200)).toHaveLength(500);
      const ids = rx.deliveries.map((d) => JSON.parse(d.raw.toString('utf8')).submission_id);
      expect(ids).toHaveLength(500);
      expect(new Set(ids).size).toBe(500);
      const recorded = await events(sb, id);
      expect(recorded).toHaveLength(500);
      expect(recorded.every((e: { status: string }) => e.status === 'success')).toBe(true);
    } finally {
      await rx.close();
    }
  });
});
