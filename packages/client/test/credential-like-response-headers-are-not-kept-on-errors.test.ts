// An error keeps the response's headers for diagnosis, but not a credential a service or a proxy
// on the way sent back in one: any header whose name or value looks like a credential (the
// toolkit's one rule, shared with the inbox's `show`) is redacted, not only the four well-known
// names the client once listed.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient, isFormsApiError } from '../src/index.js';
import { REDACTED } from '../src/redact.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

it('redacts credential-like response headers by name and by value, and keeps the rest', async () => {
  const sent = {
    'x-api-key': 'key-that-a-proxy-echoed',
    'x-amz-security-token': 'storage-session-token',
    'x-session-id': 'sess-42',
    'set-cookie': 'laravel_session=abc',
    'x-upstream': 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig',
    'x-request-id': 'req-7',
    'x-ratelimit-remaining': '3',
  };
  server = await startServer((_req, res) => json(res, 404, { message: 'Not found' }, sent));
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: { retries: 0 } });
  const error = await client.forms.get(1).catch((e: unknown) => e);
  expect(isFormsApiError(error)).toBe(true);
  const headers = (error as { headers: Record<string, string> }).headers;
  for (const name of ['x-api-key', 'x-amz-security-token', 'x-session-id', 'set-cookie', 'x-upstream'])
    expect(headers[name], name).toBe(REDACTED);
  expect(headers['x-request-id']).toBe('req-7');
  expect(headers['x-ratelimit-remaining']).toBe('3');
  expect(JSON.stringify(error)).not.toMatch(/key-that|storage-session|sess-42|laravel_session|eyJhbGci/);
});
