// A 429 that says when its window ends only by `X-RateLimit-Reset` (the Unix second; the service
// sends it beside `Retry-After`) is read by one reader: the pacer, the retry policy and the
// error's `retryAfterMs` agree on the wait.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient, type FormsClientOptions } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';
import { virtualClock } from './support/virtual-clock.js';

let server: TestServer | undefined;
afterEach(() => server?.close());

const RESET_IN_S = 30;

/** Refuses the first `refusals` requests with a 429 whose only hint is a reset 30 s ahead. */
async function resetOnlyServer(refusals: number, now: () => number) {
  return (server = await startServer((_req, res, i) => {
    if (i >= refusals) return json(res, 200, []);
    const reset = String(Math.ceil(now() / 1000) + RESET_IN_S);
    json(
      res,
      429,
      { message: 'Too Many Attempts.' },
      { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    );
  }));
}

type Engine = Pick<FormsClientOptions, 'pacing' | 'retry'>;
const engines: [string, () => Engine][] = [
  ['pacing on', () => ({ pacing: { requestsPerMinute: 100, max429Retries: 1 }, retry: { retries: 1 } })],
  ['pacing off', () => ({ retry: { retries: 1 } })],
];

it.each(engines)('%s: the request waits until the reset, then is sent again', async (_name, engine) => {
  const time = virtualClock();
  const refusing = await resetOnlyServer(1, time.now);
  const client = createFormsClient({ baseUrl: refusing.url, token: TOKEN, clock: time.clock, ...engine() });
  await expect(client.integrations.list(42)).resolves.toEqual([]);
  expect(refusing.requests).toHaveLength(2);
  expect(time.slept).toEqual([RESET_IN_S * 1000]);
});

it.each(engines)("%s: still refused, the error's retryAfterMs is the wait until the reset", async (_name, engine) => {
  const time = virtualClock();
  const refusing = await resetOnlyServer(Infinity, time.now);
  const client = createFormsClient({ baseUrl: refusing.url, token: TOKEN, clock: time.clock, ...engine() });
  await expect(client.integrations.list(42)).rejects.toMatchObject({
    kind: 'rate_limited',
    status: 429,
    retryAfterMs: RESET_IN_S * 1000,
  });
  expect(refusing.requests).toHaveLength(2);
  expect(time.slept).toEqual([RESET_IN_S * 1000]);
});
