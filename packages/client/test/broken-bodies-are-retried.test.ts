// Issue 20 #24: a GET whose body stalls or breaks mid-way is retried like a network error, as
// the README says of a timed-out attempt: the client reads the answer within the attempt.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { manualTimers } from './support/manual-timers.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const form = { id: 42, title: 'Form' };

it('a body that breaks mid-way (the connection closes) is retried', async () => {
  server = await startServer((_req, res, i) => {
    if (i > 0) return json(res, 200, form);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
    res.write('{"id": 42, "tit', () => res.socket?.destroy());
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock: fakeClock().clock });
  await expect(client.forms.get(42)).resolves.toEqual(form);
  expect(server.requests).toHaveLength(2);
});

it('a body that stalls mid-way times out and is retried', async () => {
  const timers = manualTimers();
  server = await startServer((_req, res, i) => {
    if (i > 0) return json(res, 200, form);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
    // Half the body, then silence: the attempt's timeout fires once the half is out.
    res.write('{"id": 42, "tit', () => setTimeout(() => timers.fire(), 20));
  });
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock: { ...fakeClock().clock, timer: timers.timer },
    timeoutMs: 300,
  });
  await expect(client.forms.get(42)).resolves.toEqual(form);
  expect(server.requests).toHaveLength(2);
});

it('once the retries are spent, the failure says the body broke', async () => {
  server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
    res.write('{"id": 42, "tit', () => res.socket?.destroy());
  });
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock: fakeClock().clock,
    retry: { retries: 1 },
  });
  const err = await client.forms.get(42).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'network', attempts: 2 });
  expect((err as Error).message).toMatch(/while reading the response/);
  expect(server.requests).toHaveLength(2);
});

it('a POST whose body breaks is not sent again', async () => {
  server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
    res.write('{"type": "succ', () => res.socket?.destroy());
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock: fakeClock().clock });
  await expect(client.answers.submit('f', { a: 'x' })).rejects.toMatchObject({ kind: 'network', attempts: 1 });
  expect(server.requests).toHaveLength(1);
});
