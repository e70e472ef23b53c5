// Rate-limit pacing over real HTTP, against a server that enforces N requests per minute the way
// the service does. Time is virtual (the client's Clock): minutes of pacing take milliseconds.
import createClient from 'openapi-fetch';
import type { paths } from '@forms-api/types';
import { afterEach, expect, it } from 'vitest';
import { createFormsClient, createRequestPacer, FormsApiError, type PacingWait } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { startRateLimitedServer, stampedFetch, type RateLimitedServer } from './support/rate-limited-server.js';
import { json, startServer, type TestServer } from './support/server.js';
import { virtualClock } from './support/virtual-clock.js';

let server: RateLimitedServer | TestServer | undefined;
afterEach(() => server?.close());

const LIMIT = 10;

it('the server enforces its limit: without pacing, a burst meets 429s', async () => {
  const limited = (server = await startRateLimitedServer(LIMIT));
  const time = virtualClock();
  const client = createFormsClient({
    baseUrl: limited.url,
    token: TOKEN,
    clock: time.clock,
    fetch: stampedFetch(time.now),
    retry: false,
  });
  const results = await Promise.allSettled(Array.from({ length: LIMIT + 3 }, () => client.integrations.list(1)));
  expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.kind)).toEqual([
    'rate_limited',
    'rate_limited',
    'rate_limited',
  ]);
  expect(limited.refused()).toBe(3);
  expect(time.slept).toEqual([]);
});

it('shared by two clients and a plain openapi-fetch client, one pacer keeps every request within the budget: no 429 at all', async () => {
  const limited = (server = await startRateLimitedServer(LIMIT));
  const time = virtualClock();
  const waits: PacingWait[] = [];
  const pacer = createRequestPacer({ requestsPerMinute: LIMIT, clock: time.clock, onWait: (w) => waits.push(w) });
  const options = {
    baseUrl: limited.url,
    token: TOKEN,
    clock: time.clock,
    fetch: stampedFetch(time.now),
    pacing: pacer,
    retry: false,
  } as const;
  const first = createFormsClient(options);
  const second = createFormsClient(options);
  const plain = createClient<paths>({ baseUrl: limited.url, fetch: pacer.fetch(stampedFetch(time.now)) });
  const calls = Array.from({ length: 15 }, () => [
    first.integrations.list(1),
    second.forms.get(1).catch((e: unknown) => Promise.reject(e)),
    plain.GET('/open/forms/{form}/integrations', { params: { path: { form: 1 } } }).then(({ response }) => {
      if (!response.ok) throw new Error(`plain fetch got ${response.status}`);
    }),
  ]).flat();
  const results = await Promise.allSettled(calls);
  expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  expect(limited.refused()).toBe(0);
  expect(limited.requests).toHaveLength(45);
  const stats = pacer.stats();
  expect(stats).toMatchObject({ requests: 45, rateLimited: 0, gaveUp: 0, rateLimitedWaitMs: 0, limit: LIMIT });
  expect(stats.waitedMs).toBe(stats.pacingWaitMs);
  expect(waits.length).toBeGreaterThan(0);
  expect(waits.every((w) => w.reason === 'pacing' && w.waitMs > 0 && !w.path.includes('?'))).toBe(true);
  // 45 requests at 10 a minute: at least four whole windows went by.
  expect(time.elapsed()).toBeGreaterThanOrEqual(4 * 60_000);
});

it('sequential calls are spaced ahead of time: no 429 over several windows', async () => {
  const limited = (server = await startRateLimitedServer(LIMIT));
  const time = virtualClock();
  const client = createFormsClient({
    baseUrl: limited.url,
    token: TOKEN,
    clock: time.clock,
    fetch: stampedFetch(time.now),
    // The pacer made from these options runs on the client's clock.
    pacing: { requestsPerMinute: LIMIT },
  });
  for (let i = 0; i < 3 * LIMIT + 1; i++) await client.integrations.list(1);
  expect(limited.refused()).toBe(0);
  const sentAt = limited.requests.map((r) => Number(r.headers['x-test-sent-at']));
  // Evenly spaced, never two in less than a tenth of a (slightly longer) minute.
  for (let i = 1; i < sentAt.length; i++) expect(sentAt[i]! - sentAt[i - 1]!).toBeGreaterThanOrEqual(6_000);
});

it('reads X-RateLimit-Remaining: a budget another user of the token already spent slows it down, with no 429', async () => {
  const limited = (server = await startRateLimitedServer(LIMIT));
  const time = virtualClock();
  limited.spend(7, time.now());
  const pacer = createRequestPacer({ requestsPerMinute: LIMIT, clock: time.clock });
  const client = createFormsClient({
    baseUrl: limited.url,
    token: TOKEN,
    clock: time.clock,
    fetch: stampedFetch(time.now),
    pacing: pacer,
  });
  for (let i = 0; i < 2 * LIMIT; i++) await client.integrations.list(1);
  expect(limited.refused()).toBe(0);
  expect(pacer.stats()).toMatchObject({ rateLimited: 0, requests: 2 * LIMIT });
});

it('reads X-RateLimit-Limit: a lower limit than configured is the one kept to', async () => {
  const limited = (server = await startRateLimitedServer(5));
  const time = virtualClock();
  const pacer = createRequestPacer({ requestsPerMinute: 100, clock: time.clock });
  const client = createFormsClient({
    baseUrl: limited.url,
    token: TOKEN,
    clock: time.clock,
    fetch: stampedFetch(time.now),
    pacing: pacer,
  });
  for (let i = 0; i < 16; i++) await client.integrations.list(1);
  expect(limited.refused()).toBe(0);
  expect(pacer.stats().limit).toBe(5);
});

function refusingServer(refusals: number, headers: (i: number) => Record<string, string>) {
  return startServer((_req, res, i) =>
    i < refusals
      ? json(
          res,
          429,
          { message: 'Too Many Attempts.' },
          { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', ...headers(i) },
        )
      : json(res, 200, [], { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99' }),
  );
}

it('a 429 is waited out (its Retry-After) and the request sent again: the caller never sees it', async () => {
  const refusing = (server = await refusingServer(1, () => ({ 'retry-after': '7' })));
  const time = virtualClock();
  const waits: PacingWait[] = [];
  const client = createFormsClient({
    baseUrl: refusing.url,
    token: TOKEN,
    clock: time.clock,
    pacing: { requestsPerMinute: 100, onWait: (w) => waits.push(w) },
  });
  await expect(client.integrations.list(42)).resolves.toEqual([]);
  expect(refusing.requests).toHaveLength(2);
  expect(waits).toEqual([
    {
      waitMs: 7_000,
      reason: 'rate_limited',
      method: 'GET',
      path: '/open/forms/42/integrations',
      refusals: 1,
      remaining: 0,
    },
  ]);
  // The client's own retry did not wait a second time for the same 429.
  expect(time.slept).toEqual([7_000]);
});

it('a 429 without Retry-After is waited out until its X-RateLimit-Reset', async () => {
  const time = virtualClock();
  const resetAt = Math.ceil((time.now() + 42_000) / 1000);
  const refusing = (server = await refusingServer(1, () => ({ 'x-ratelimit-reset': String(resetAt) })));
  const pacer = createRequestPacer({ requestsPerMinute: 100, clock: time.clock });
  const client = createFormsClient({ baseUrl: refusing.url, token: TOKEN, clock: time.clock, pacing: pacer });
  await client.integrations.list(42);
  expect(time.slept).toEqual([resetAt * 1000 - Date.UTC(2025, 0, 1)]);
  expect(pacer.stats()).toMatchObject({ rateLimited: 1, rateLimitedWaitMs: 42_000, requests: 2 });
});

it('still refused after the bound: rate_limited carrying the wait it asked for', async () => {
  const refusing = (server = await refusingServer(Infinity, () => ({ 'retry-after': '90' })));
  const time = virtualClock();
  const pacer = createRequestPacer({ requestsPerMinute: 100, clock: time.clock, maxWaitMs: 120_000 });
  const client = createFormsClient({ baseUrl: refusing.url, token: TOKEN, clock: time.clock, pacing: pacer });
  const err = await client.integrations.list(42).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FormsApiError);
  expect(err).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 90_000 });
  expect((err as Error).message).toMatch(
    /GET \/open\/forms\/\{form\}\/integrations .*still refused after 2 429s and 90 s of waiting; the service asks to wait 90 s more, beyond the pacer's `maxWaitMs` \(120 s\)/,
  );
  // Waited once (90 s), then a second wait would have passed the bound of 120 s.
  expect(refusing.requests).toHaveLength(2);
  expect(time.slept).toEqual([90_000]);
  expect(pacer.stats()).toMatchObject({ rateLimited: 2, gaveUp: 1, rateLimitedWaitMs: 90_000 });
});

it('max429Retries bounds the refusals one request may meet', async () => {
  const refusing = (server = await refusingServer(Infinity, () => ({ 'retry-after': '1' })));
  const time = virtualClock();
  const client = createFormsClient({
    baseUrl: refusing.url,
    token: TOKEN,
    clock: time.clock,
    pacing: { requestsPerMinute: 100, max429Retries: 3 },
  });
  await expect(client.integrations.list(42)).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: 1_000 });
  expect(refusing.requests).toHaveLength(4);
});

it('a plain fetch through the pacer fails after the bound with a typed rate_limited error, without the query', async () => {
  const refusing = (server = await refusingServer(Infinity, () => ({ 'retry-after': '200' })));
  const time = virtualClock();
  const pacer = createRequestPacer({ requestsPerMinute: 100, clock: time.clock });
  const paced = pacer.fetch();
  const err = await paced(`${refusing.url}/open/forms/1/submissions?signature=abc123secret`).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FormsApiError);
  expect(err).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 200_000, attempts: 1 });
  expect(JSON.stringify(err)).not.toContain('abc123secret');
  expect((err as Error).message).not.toContain('abc123secret');
  expect(refusing.requests).toHaveLength(1);
});

it('a plain fetch with a body re-sends the same body after a 429', async () => {
  const refusing = (server = await refusingServer(1, () => ({ 'retry-after': '2' })));
  const time = virtualClock();
  const pacer = createRequestPacer({ requestsPerMinute: 100, clock: time.clock });
  const response = await pacer.fetch()(`${refusing.url}/forms/a/answer`, {
    method: 'POST',
    body: '{"x":1}',
    headers: { 'content-type': 'application/json' },
  });
  expect(response.status).toBe(200);
  expect(refusing.requests.map((r) => r.body)).toEqual(['{"x":1}', '{"x":1}']);
});

it("a wait ends with the caller's signal: kind aborted", async () => {
  const refusing = (server = await refusingServer(Infinity, () => ({ 'retry-after': '30' })));
  const controller = new AbortController();
  const client = createFormsClient({
    baseUrl: refusing.url,
    token: TOKEN,
    // Real time: the wait is 30 s, the abort comes first.
    pacing: { requestsPerMinute: 100, onWait: () => setTimeout(() => controller.abort(), 10) },
  });
  await expect(client.integrations.list(42, { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
  expect(refusing.requests).toHaveLength(1);
});

it('is off by default: nothing waits, nothing is counted', async () => {
  const limited = (server = await startRateLimitedServer(LIMIT));
  const time = virtualClock();
  const client = createFormsClient({
    baseUrl: limited.url,
    token: TOKEN,
    clock: time.clock,
    fetch: stampedFetch(time.now),
  });
  for (let i = 0; i < LIMIT; i++) await client.integrations.list(1);
  expect(time.slept).toEqual([]);
  expect(time.elapsed()).toBe(0);
});

it('wrong pacing options are refused up front with a typed error', () => {
  expect(() => createRequestPacer({ requestsPerMinute: 0 })).toThrow(
    expect.objectContaining({ kind: 'invalid_option', option: 'pacing.requestsPerMinute' }),
  );
  expect(() => createRequestPacer({ requestsPerMinute: 100, maxWaitMs: -1 })).toThrow(
    expect.objectContaining({ option: 'pacing.maxWaitMs' }),
  );
  expect(() => createRequestPacer({ requestsPerMinute: 100, max429Retries: 1.5 })).toThrow(
    expect.objectContaining({ option: 'pacing.max429Retries' }),
  );
  expect(() => createRequestPacer({ requestsPerMinute: 100, perMinute: 3 } as never)).toThrow(
    expect.objectContaining({ option: 'pacing.perMinute' }),
  );
  expect(() => createFormsClient({ baseUrl: 'https://api.example.com', token: TOKEN, pacing: 100 as never })).toThrow(
    expect.objectContaining({ kind: 'invalid_option', option: 'pacing' }),
  );
});
