import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

// Answers after 2 s; `onArrive` lets a test abort once the request has really reached the server.
const slow = (onArrive: () => void = () => {}) =>
  startServer((_req, res) => {
    onArrive();
    setTimeout(() => json(res, 200, {}), 2000);
  });

it('a caller abort during the request is `aborted` and is not retried', async () => {
  const controller = new AbortController();
  server = await slow(() => controller.abort());
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: { retries: 5 } });
  await expect(client.forms.get(42, { signal: controller.signal })).rejects.toMatchObject({
    kind: 'aborted',
    attempts: 1,
  });
  expect(server.requests).toHaveLength(1);
});

it('an abort during the backoff wait stops the retries', async () => {
  const controller = new AbortController();
  server = await startServer((_req, res) => {
    json(res, 503, { message: 'down' });
    // Abort once the client waits out its backoff: ten minutes, far past the test's bound, so
    // only the abort can end the wait.
    setTimeout(() => controller.abort(), 100);
  });
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    retry: { retries: 5, baseDelayMs: 600_000, maxDelayMs: 600_000 },
    clock: { random: () => 1 },
  });
  await expect(client.forms.get(42, { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
  expect(server.requests).toHaveLength(1);
});

it('the client-level signal cancels every call, and an aborted signal sends nothing', async () => {
  server = await slow();
  const controller = new AbortController();
  controller.abort();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, signal: controller.signal });
  await expect(client.forms.get(42)).rejects.toMatchObject({ kind: 'aborted' });
  await expect(client.submissions.list(42)).rejects.toMatchObject({ kind: 'aborted' });
  expect(server.requests).toHaveLength(0);
});

it('raw calls take the standard `signal` and report `aborted`', async () => {
  const controller = new AbortController();
  server = await slow(() => controller.abort());
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  await expect(
    client.GET('/open/forms/{form}', { params: { path: { form: 1 } }, signal: controller.signal }),
  ).rejects.toMatchObject({ kind: 'aborted' });
});
