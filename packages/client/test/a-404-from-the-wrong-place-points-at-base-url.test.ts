// A new user's trial: a `baseUrl` pointing at the wrong server (a web page's 404, or the API under
// an extra `/api`, which Laravel answers "The route … could not be found.") was blamed on the id:
// "form 11 does not exist … check the id". A 404 that is not the service's answer about a record
// points at `baseUrl`; the service's own 404 still points at the id. And a long validation message
// (the sandbox's hint about --allow-private-webhooks) is no longer cut off in `err.message`.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

it('an HTML 404 (another server): check baseUrl, not the id', async () => {
  server = await startServer((_req, res) => {
    res
      .writeHead(404, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Not Found</title><h1>Cannot GET</h1>');
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const err = await client.forms.get(11).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'not_found', status: 404 });
  expect((err as Error).message).toMatch(/check `baseUrl`/);
  expect((err as Error).message).not.toMatch(/check the id/);
});

it("Laravel's unknown-route 404 (the API under a wrong path): check baseUrl", async () => {
  server = await startServer((_req, res) =>
    json(res, 404, { message: 'The route api/open/forms/11 could not be found.' }),
  );
  const client = createFormsClient({ baseUrl: `${server.url}/api`, token: TOKEN, retry: false });
  const err = await client.forms.get(11).catch((e: unknown) => e);
  expect((err as Error).message).toMatch(/check `baseUrl`/);
  expect((err as Error).message).not.toMatch(/check the id/);
});

it("the service's own 404 about a record still points at the id", async () => {
  server = await startServer((_req, res) => json(res, 404, { message: 'Form not found.' }));
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const err = await client.forms.get(11).catch((e: unknown) => e);
  expect((err as Error).message).toMatch(/form 11 does not exist or is not visible to the token's user: check the id/);
  expect((err as Error).message).not.toMatch(/baseUrl/);
});

it('a validation message longer than a line reaches err.message whole', async () => {
  const hint =
    // The sandbox's answer: the refusal, then its hint (apps/sandbox/src/routes/integrations.ts).
    'The webhook url must not point to a loopback, private or link-local address (127.0.0.1). For a local receiver (http://127.0.0.1:…, a private address), start the sandbox with --allow-private-webhooks (startSandbox({ allowPrivateWebhooks: true })).';
  server = await startServer((_req, res) =>
    json(res, 422, { message: 'The given data was invalid.', errors: { 'data.webhook_url': [hint] } }),
  );
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const err = await client.integrations
    .create(11, {
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: 'http://127.0.0.1:3000/hook' },
    } as never)
    .catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'validation' });
  expect((err as Error).message).toContain('--allow-private-webhooks');
});
