// Each attempt's timeout, on the client's Clock: the test fires it when its server has received
// a request it will not answer, so nothing here waits in real time.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { manualTimers } from './support/manual-timers.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

/** A server that leaves the first `slowCount` requests unanswered and times them out at once. */
function slowFirst(slowCount: number, timers: ReturnType<typeof manualTimers>) {
  return startServer((_req, res, i) => {
    if (i < slowCount) timers.fire();
    else json(res, 200, { id: 42 });
  });
}

function clockWith(timers: ReturnType<typeof manualTimers>) {
  return { ...fakeClock().clock, timer: timers.timer };
}

it('times out each attempt on its own and retries a timed-out GET', async () => {
  const timers = manualTimers();
  server = await slowFirst(2, timers);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock: clockWith(timers), timeoutMs: 1_000 });
  await expect(client.forms.get(42)).resolves.toEqual({ id: 42 });
  expect(server.requests).toHaveLength(3);
  expect(timers.started).toEqual([1_000, 1_000, 1_000]);
  // The last attempt's timer was stopped when the call returned.
  expect(timers.running()).toBe(0);
});

it('fails with kind timeout once the retries are spent', async () => {
  const timers = manualTimers();
  server = await slowFirst(5, timers);
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock: clockWith(timers),
    timeoutMs: 50,
    retry: { retries: 1 },
  });
  const err = await client.forms.get(42).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'timeout', attempts: 2, operation: { operationId: 'getForm' } });
  expect((err as Error).message).toMatch(/no response within 50 ms.*timeoutMs/);
});

it('applies a per-call timeoutMs over the client default', async () => {
  const timers = manualTimers();
  server = await slowFirst(1, timers);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock: clockWith(timers), retry: false });
  await expect(client.forms.get(42, { timeoutMs: 50 })).rejects.toMatchObject({ kind: 'timeout', attempts: 1 });
  expect(timers.started).toEqual([50]);
});

it('applies the client timeout to raw openapi-fetch calls too', async () => {
  const timers = manualTimers();
  server = await slowFirst(1, timers);
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock: clockWith(timers),
    timeoutMs: 50,
    retry: false,
  });
  await expect(client.GET('/open/forms/{form}', { params: { path: { form: 42 } } })).rejects.toMatchObject({
    kind: 'timeout',
  });
  expect(timers.started).toEqual([50]);
});

it('the timeout covers reading the body: a body that stops mid-way times out', async () => {
  const timers = manualTimers();
  server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    // Half a body, then silence; the timeout fires once the half is on its way.
    res.write('{"id": 42, ', () => setImmediate(() => timers.fire()));
  });
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock: clockWith(timers),
    timeoutMs: 50,
    retry: false,
  });
  const err = await client.forms.get(42).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'timeout', attempts: 1 });
});

it('timeoutMs: Infinity starts no timer', async () => {
  const timers = manualTimers();
  server = await slowFirst(0, timers);
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock: clockWith(timers),
    timeoutMs: Infinity,
  });
  await client.forms.get(42);
  expect(timers.started).toEqual([]);
});
