import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const accepted = { type: 'success', message: 'ok', submission_id: null, is_first_submission: true, redirect: false };

function unavailableOnce() {
  return startServer((_req, res, i) =>
    i === 0 ? json(res, 503, { message: 'Service Unavailable' }) : json(res, 200, accepted),
  );
}

it('does not retry the public answer POST, and sends it without the token', async () => {
  server = await unavailableOnce();
  const { clock } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
  await expect(client.answers.submit('my-form', { 'field-a': 'x' })).rejects.toMatchObject({
    kind: 'server',
    attempts: 1,
  });
  expect(server.requests).toHaveLength(1);
  expect(server.requests[0]!.url.pathname).toBe('/forms/my-form/answer');
  expect(server.requests[0]!.headers.authorization).toBeUndefined();
});

it('does not retry createFormIntegration, nor a POST that failed on the network', async () => {
  server = await startServer((_req, res) => void res.socket?.destroy());
  const { clock, delays } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock, retry: { retries: 5 } });
  const input = { integration_id: 'webhook', status: 'active', data: { webhook_url: 'https://e.com' } } as const;
  await expect(client.integrations.create(42, input)).rejects.toMatchObject({ kind: 'network', attempts: 1 });
  expect(server.requests).toHaveLength(1);
  expect(delays).toEqual([]);
});

it('retries a POST only with retry.unsafe', async () => {
  server = await unavailableOnce();
  const { clock } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
  await expect(client.answers.submit(42, { 'field-a': 'x' }, { retry: { unsafe: true } })).resolves.toEqual(accepted);
  expect(server.requests).toHaveLength(2);
  expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
});
