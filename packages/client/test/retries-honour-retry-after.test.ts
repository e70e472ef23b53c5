import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

function limitedOnce(retryAfter: string) {
  return startServer((_req, res, i) => {
    if (i === 0)
      return json(
        res,
        429,
        { message: 'Too Many Attempts.' },
        {
          'retry-after': retryAfter,
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '0',
        },
      );
    json(res, 200, []);
  });
}

it('waits Retry-After seconds instead of the backoff', async () => {
  server = await limitedOnce('7');
  const { clock, delays } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
  await expect(client.integrations.list(42)).resolves.toEqual([]);
  expect(delays).toEqual([7000]);
});

it('waits until a Retry-After HTTP date', async () => {
  const { clock, delays, state } = fakeClock();
  server = await limitedOnce(new Date(state.now + 12_000).toUTCString());
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
  await client.integrations.list(42);
  expect(delays).toEqual([12_000]);
});

it('treats a Retry-After date in the past as "now"', async () => {
  const { clock, delays, state } = fakeClock();
  server = await limitedOnce(new Date(state.now - 60_000).toUTCString());
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
  await client.integrations.list(42);
  expect(delays).toEqual([0]);
});

it('does not wait longer than maxRetryAfterMs: it fails with rate_limited and retryAfterMs', async () => {
  server = await limitedOnce('3600');
  const { clock, delays } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock, retry: { maxRetryAfterMs: 60_000 } });
  const err = await client.integrations.list(42).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 3_600_000, attempts: 1 });
  expect((err as Error).message).toContain('wait 3600 s');
  expect((err as { headers: Record<string, string> }).headers['x-ratelimit-remaining']).toBe('0');
  expect(delays).toEqual([]);
});
