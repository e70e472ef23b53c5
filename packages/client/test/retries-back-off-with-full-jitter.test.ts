import { afterEach, describe, expect, it } from 'vitest';
import { createFormsClient, FormsApiError } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const form = { id: 42, slug: 'f' };

function failThen(statuses: number[]) {
  return startServer((_req, res, i) => {
    const status = statuses[i];
    if (status !== undefined) return json(res, status, { message: 'Server Error' });
    json(res, 200, form);
  });
}

describe('retries', () => {
  it('retries 502/503/504 on GET with full-jitter exponential backoff', async () => {
    server = await failThen([502, 503, 504]);
    const { clock, delays } = fakeClock(0.5);
    const client = createFormsClient({
      baseUrl: server.url,
      token: TOKEN,
      clock,
      retry: { retries: 3, baseDelayMs: 100 },
    });
    await expect(client.forms.get(42)).resolves.toEqual(form);
    expect(server.requests).toHaveLength(4);
    // random 0.5 × min(cap, 100·2^(n-1))
    expect(delays).toEqual([50, 100, 200]);
  });

  it('caps the backoff at maxDelayMs', async () => {
    server = await failThen([503, 503, 503, 503]);
    const { clock, delays } = fakeClock(0.999);
    const client = createFormsClient({
      baseUrl: server.url,
      token: TOKEN,
      clock,
      retry: { retries: 4, baseDelayMs: 1000, maxDelayMs: 2500 },
    });
    await client.forms.get(42);
    expect(delays).toEqual([999, 1998, 2497, 2497]);
  });

  it('gives up after `retries` and reports the attempts', async () => {
    server = await failThen([503, 503, 503, 503]);
    const { clock } = fakeClock();
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
    const err = await client.forms.get(42).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormsApiError);
    expect(err).toMatchObject({ kind: 'server', status: 503, attempts: 3 });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry statuses outside retryOn, and retryOn is configurable', async () => {
    server = await failThen([500, 500]);
    const { clock } = fakeClock();
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
    await expect(client.forms.get(42)).rejects.toMatchObject({ kind: 'server', status: 500, attempts: 1 });
    await expect(client.forms.get(42, { retry: { retryOn: [500] } })).resolves.toEqual(form);
    expect(server.requests).toHaveLength(3);
  });

  it('retry: false disables retries per client and per call', async () => {
    server = await failThen([503, 503, 503]);
    const { clock } = fakeClock();
    const off = createFormsClient({ baseUrl: server.url, token: TOKEN, clock, retry: false });
    await expect(off.forms.get(42)).rejects.toMatchObject({ attempts: 1 });
    const on = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
    await expect(on.forms.get(42, { retry: false })).rejects.toMatchObject({ attempts: 1 });
    // A call can switch retries back on over a client that has none.
    await expect(off.forms.get(42, { retry: { retries: 1 } })).resolves.toEqual(form);
  });

  it('retries network errors on idempotent methods', async () => {
    let fails = 2;
    server = await startServer((_req, res) => {
      if (fails-- > 0) return void res.socket?.destroy();
      json(res, 200, form);
    });
    const { clock, delays } = fakeClock();
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
    await expect(client.forms.get(42)).resolves.toEqual(form);
    expect(delays).toHaveLength(2);
  });
});
