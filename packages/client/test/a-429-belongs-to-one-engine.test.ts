// A 429 belongs to the pacer alone when pacing is on, and to the retry policy when it is off:
// counted in the requests a real server receives, never both waiting out the same refusal.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient, createRequestPacer, type RetryEvent } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';
import { virtualClock } from './support/virtual-clock.js';

let server: TestServer | undefined;
afterEach(() => server?.close());

async function alwaysRefusing() {
  return (server = await startServer((_req, res) =>
    json(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '1', 'x-ratelimit-remaining': '0' }),
  ));
}

const PACER_RESENDS = 2;
const RETRIES = 3;

it('pacing on: the pacer resends a 429 within max429Retries, and the retry policy never resends it', async () => {
  const refusing = await alwaysRefusing();
  const time = virtualClock();
  const retries: RetryEvent[] = [];
  const client = createFormsClient({
    baseUrl: refusing.url,
    token: TOKEN,
    clock: time.clock,
    pacing: { requestsPerMinute: 100, max429Retries: PACER_RESENDS },
    retry: { retries: RETRIES, onRetry: (e) => void retries.push(e) },
  });
  await expect(client.integrations.list(42)).rejects.toMatchObject({ kind: 'rate_limited', status: 429 });
  expect(refusing.requests).toHaveLength(1 + PACER_RESENDS);
  expect(retries).toEqual([]);
});

it('pacing off: the retry policy resends a 429 within its retries', async () => {
  const refusing = await alwaysRefusing();
  const time = virtualClock();
  const retries: RetryEvent[] = [];
  const client = createFormsClient({
    baseUrl: refusing.url,
    token: TOKEN,
    clock: time.clock,
    retry: { retries: RETRIES, onRetry: (e) => void retries.push(e) },
  });
  await expect(client.integrations.list(42)).rejects.toMatchObject({ kind: 'rate_limited', status: 429 });
  expect(refusing.requests).toHaveLength(1 + RETRIES);
  expect(retries.map((e) => e.reason)).toEqual(Array(RETRIES).fill('rate_limited'));
});

it("a pacer's fetch given as the client's fetch: the pacer's rate_limited error ends the call, not resent by the retry policy", async () => {
  const refusing = await alwaysRefusing();
  const time = virtualClock();
  const retries: RetryEvent[] = [];
  const pacer = createRequestPacer({ requestsPerMinute: 100, clock: time.clock, max429Retries: PACER_RESENDS });
  const client = createFormsClient({
    baseUrl: refusing.url,
    token: TOKEN,
    clock: time.clock,
    fetch: pacer.fetch(),
    retry: { retries: RETRIES, onRetry: (e) => void retries.push(e) },
  });
  await expect(client.integrations.list(42)).rejects.toMatchObject({ kind: 'rate_limited', status: 429 });
  expect(refusing.requests).toHaveLength(1 + PACER_RESENDS);
  expect(retries).toEqual([]);
});
