import { afterEach, expect, it } from 'vitest';
import { createFormsClient, type RetryEvent } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

/** Answers each request with the next of `steps` (a status, with Retry-After seconds), then 200. */
function answers(steps: Array<[status: number, retryAfter?: string] | 'drop'>) {
  return startServer((_req, res, i) => {
    const step = steps[i];
    if (step === 'drop') return void res.socket?.destroy();
    if (!step) return json(res, 200, { id: 42 });
    json(res, step[0], { message: 'no' }, step[1] === undefined ? {} : { 'retry-after': step[1] });
  });
}

it('tells onRetry the attempt, the reason, the wait and the operation before each retry', async () => {
  server = await answers([[429, '7'], [503], 'drop']);
  const { clock, delays } = fakeClock(0.5);
  const events: RetryEvent[] = [];
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock,
    retry: { retries: 3, baseDelayMs: 100, onRetry: (e) => void events.push(e) },
  });
  await expect(client.forms.get(42)).resolves.toEqual({ id: 42 });
  expect(events).toEqual([
    {
      attempt: 1,
      reason: 'rate_limited',
      status: 429,
      delayMs: 7000,
      retryAfter: true,
      operation: expect.objectContaining({ operationId: 'getForm', params: { form: '42' } }),
    },
    {
      attempt: 2,
      reason: 'server',
      status: 503,
      delayMs: 100,
      retryAfter: false,
      operation: expect.objectContaining({ operationId: 'getForm' }),
    },
    {
      attempt: 3,
      reason: 'network',
      delayMs: 200,
      retryAfter: false,
      operation: expect.objectContaining({ operationId: 'getForm' }),
    },
  ]);
  expect(delays).toEqual([7000, 100, 200]);
});

it('returning false stops the retries: the call fails at once with the error of that attempt', async () => {
  server = await answers([
    [429, '60'],
    [429, '60'],
  ]);
  const { clock, delays } = fakeClock();
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock,
    retry: { onRetry: (e) => e.delayMs < 10_000 },
  });
  const err = await client.integrations.list(42).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'rate_limited', status: 429, attempts: 1, retryAfterMs: 60_000 });
  expect(delays).toEqual([]);
  expect(server.requests).toHaveLength(1);
});

it('stops a network or timeout retry the same way, and an async onRetry is awaited', async () => {
  server = await answers(['drop', 'drop']);
  const { clock } = fakeClock();
  const seen: string[] = [];
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock,
    retry: {
      onRetry: async (e) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        seen.push(e.reason);
        return false;
      },
    },
  });
  await expect(client.forms.get(1)).rejects.toMatchObject({ kind: 'network', attempts: 1 });
  expect(seen).toEqual(['network']);
});

it('an exception thrown by onRetry ends the call with that exception', async () => {
  server = await answers([[503]]);
  const { clock } = fakeClock();
  const mine = new Error('stop everything');
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock,
    retry: {
      onRetry: () => {
        throw mine;
      },
    },
  });
  await expect(client.forms.get(1)).rejects.toBe(mine);
});

it("a call's onRetry replaces the client's; none is called for a Retry-After beyond maxRetryAfterMs", async () => {
  server = await answers([[503], [429, '3600']]);
  const { clock } = fakeClock();
  const clientEvents: number[] = [];
  const callEvents: number[] = [];
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock,
    retry: { onRetry: (e) => void clientEvents.push(e.attempt) },
  });
  await expect(
    client.forms.get(1, { retry: { onRetry: (e) => void callEvents.push(e.attempt) } }),
  ).rejects.toMatchObject({
    kind: 'rate_limited',
    attempts: 2,
  });
  expect(callEvents).toEqual([1]);
  expect(clientEvents).toEqual([]);
});

it('raw calls report their retries too', async () => {
  server = await answers([[502]]);
  const { clock } = fakeClock();
  const events: RetryEvent[] = [];
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock,
    retry: { onRetry: (e) => void events.push(e) },
  });
  const { data } = await client.GET('/open/forms/{form}', { params: { path: { form: 42 } } });
  expect(data).toEqual({ id: 42 });
  expect(events.map((e) => [e.reason, e.status, e.operation.operationId])).toEqual([['server', 502, 'getForm']]);
});

it('rejects an onRetry that is not a function', () => {
  expect(() =>
    createFormsClient({ baseUrl: 'https://x.example', token: TOKEN, retry: { onRetry: 'log' as never } }),
  ).toThrow(/retry\.onRetry.*function/);
});
