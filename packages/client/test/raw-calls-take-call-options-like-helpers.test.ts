// The README: `timeoutMs`, `retry` and `maxResponseBytes` apply per call to helpers and raw calls
// alike. A raw call (`client.GET(path, init)`) names them in its init beside openapi-fetch's keys;
// before, it took the client's and dropped its own without a word (a trial as a new user found a
// raw call reading a 52 kB body past `maxResponseBytes: 10_000`).
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { manualTimers } from './support/manual-timers.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const path = '/open/forms/{form}' as const;
const params = { path: { form: 7 } };

it("a raw call's maxResponseBytes caps its body, JSON or streamed", async () => {
  // Chunked, no Content-Length: the cap is met while the body arrives.
  server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 7, title: 'x'.repeat(5_000) }));
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  await expect(client.GET(path, { params, maxResponseBytes: 1_000 })).rejects.toMatchObject({
    kind: 'response_too_large',
    context: { limit: 1_000 },
  });
  const { response } = await client.GET(path, { params, parseAs: 'stream', maxResponseBytes: 1_000 });
  await expect(response.text()).rejects.toMatchObject({ kind: 'response_too_large' });
  // Without one, the client's (32 MiB) applies.
  await expect(client.GET(path, { params })).resolves.toMatchObject({ data: { id: 7 } });
});

it("a raw call's timeoutMs and retry replace the client's", async () => {
  const timers = manualTimers();
  server = await startServer((_req, res, i) => {
    if (i < 2) timers.fire();
    else json(res, 200, { id: 7 });
  });
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock: { ...fakeClock().clock, timer: timers.timer },
    timeoutMs: 30_000,
    retry: false,
  });
  const { data } = await client.GET(path, { params, timeoutMs: 250, retry: { retries: 2 } });
  expect(data).toEqual({ id: 7 });
  expect(timers.started).toEqual([250, 250, 250]);
});

it("a raw call's malformed option is refused before anything is sent", async () => {
  server = await startServer((_req, res) => json(res, 200, {}));
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  await expect(client.GET(path, { params, timeoutMs: -1 })).rejects.toMatchObject({
    kind: 'invalid_option',
    option: 'timeoutMs',
  });
  await expect(client.GET(path, { params, retry: { retries: 1.5 } })).rejects.toMatchObject({
    kind: 'invalid_option',
    option: 'retry.retries',
  });
  expect(server.requests).toHaveLength(0);
});
