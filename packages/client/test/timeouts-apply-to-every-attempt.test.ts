import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const slowFirst = (slowCount: number, delayMs: number) =>
  startServer((_req, res, i) => {
    if (i < slowCount) setTimeout(() => json(res, 200, { id: 'late' }), delayMs);
    else json(res, 200, { id: 42 });
  });

it('times out each attempt on its own and retries a timed-out GET', { timeout: 15_000 }, async () => {
  // A timeout long enough for the fast third answer on a loaded machine, far below the slow ones.
  server = await slowFirst(2, 10_000);
  const { clock } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock, timeoutMs: 1_000 });
  const started = performance.now();
  await expect(client.forms.get(42)).resolves.toEqual({ id: 42 });
  expect(server.requests).toHaveLength(3);
  expect(performance.now() - started).toBeLessThan(8_000);
});

it('fails with kind timeout once the retries are spent', async () => {
  server = await slowFirst(5, 1000);
  const { clock } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock, timeoutMs: 50, retry: { retries: 1 } });
  const err = await client.forms.get(42).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'timeout', attempts: 2, operation: { operationId: 'getForm' } });
  expect((err as Error).message).toMatch(/no response within 50 ms.*timeoutMs/);
});

it('applies a per-call timeoutMs over the client default', async () => {
  server = await slowFirst(1, 1000);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  await expect(client.forms.get(42, { timeoutMs: 50 })).rejects.toMatchObject({ kind: 'timeout', attempts: 1 });
});

it('applies the client timeout to raw openapi-fetch calls too', async () => {
  server = await slowFirst(1, 1000);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 50, retry: false });
  await expect(client.GET('/open/forms/{form}', { params: { path: { form: 42 } } })).rejects.toMatchObject({ kind: 'timeout' });
});
