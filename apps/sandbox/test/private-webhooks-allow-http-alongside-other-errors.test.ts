// With --allow-private-webhooks an http:// receiver URL is acceptable however many other errors
// the body has: the 422 names only the real errors, and fixing them saves the webhook (issue 15).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, sandbox } from './support.js';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await sandbox({ allowPrivateWebhooks: true });
});
afterAll(() => sb.close());

const create = (data: Record<string, unknown>, status = 'active') =>
  call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
    token: sb.tokens.all,
    body: { integration_id: 'webhook', status, data },
    operationId: 'createFormIntegration',
  });

it('reports only the other errors of a body with an http receiver', async () => {
  const url = 'http://127.0.0.1:9/hook';
  const oneError = await create({ webhook_url: url, webhook_secret: 'short' });
  expect(oneError.status).toBe(422);
  expect(Object.keys(oneError.body.errors)).toEqual(['data.webhook_secret']);
  const twoErrors = await create({ webhook_url: url, webhook_secret: 'short' }, 'sleeping');
  expect(Object.keys(twoErrors.body.errors).sort()).toEqual(['data.webhook_secret', 'status']);
  expect(twoErrors.body.message).not.toMatch(/https/);
  expect((await create({ webhook_url: url, webhook_secret: 'long-enough-secret' })).status).toBe(200);
});

it('still refuses other schemes and malformed URLs', async () => {
  for (const url of ['ftp://127.0.0.1/hook', 'not a url']) {
    const refused = await create({ webhook_url: url });
    expect(refused.status, url).toBe(422);
    expect(Object.keys(refused.body.errors), url).toEqual(['data.webhook_url']);
  }
});

it('reports a blocked header name with the service message, alongside the other errors', async () => {
  const refused = await create({
    webhook_url: 'http://127.0.0.1:9/hook',
    webhook_secret: 'short',
    webhook_headers: { 'X-Webhook-Signature': 'forged' },
  });
  expect(refused.status).toBe(422);
  expect(refused.body.errors['data.webhook_headers']).toEqual([
    "The 'X-Webhook-Signature' header cannot be customized for security reasons.",
  ]);
  expect(Object.keys(refused.body.errors).sort()).toEqual(['data.webhook_headers', 'data.webhook_secret']);
});
