// `onlyWhenLimited`: a service that reports no limit (a test double, a proxy, a sandbox with its
// limit off) is not spaced, so a long run against it is not slowed to a budget nobody enforces;
// its first 429 puts the pacer back in charge, and a reported limit keeps it there.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient, createRequestPacer, type PacingWait } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';
import { virtualClock } from './support/virtual-clock.js';

let server: TestServer | undefined;
afterEach(() => server?.close());

/** A client paced at 1 request a minute (so any spacing shows as a wait) over `answer`. */
async function pacedOver(answer: (index: number) => { status: number; headers?: Record<string, string> }) {
  const s = (server = await startServer((_req, res, index) => {
    const { status, headers } = answer(index);
    json(res, status, status === 200 ? [] : { message: 'Too Many Attempts.' }, headers);
  }));
  const time = virtualClock();
  const waits: PacingWait[] = [];
  const pacer = createRequestPacer({
    requestsPerMinute: 1,
    onlyWhenLimited: true,
    clock: time.clock,
    onWait: (w) => waits.push(w),
  });
  const client = createFormsClient({ baseUrl: s.url, token: TOKEN, clock: time.clock, pacing: pacer, retry: false });
  const list = () => client.integrations.list(1);
  return { pacer, waits, list, server: s };
}

it('sends at once while answers carry no X-RateLimit-Limit', async () => {
  const { pacer, waits, list, server: s } = await pacedOver(() => ({ status: 200 }));
  for (let i = 0; i < 5; i++) await list();
  expect(s.requests).toHaveLength(5);
  expect(waits).toEqual([]);
  expect(pacer.stats()).toMatchObject({ requests: 5, waitedMs: 0, unlimited: true });
});

it('a 429 puts the pacer back in charge: the refused request is waited out, then sent again paced', async () => {
  const {
    pacer,
    waits,
    list,
    server: s,
  } = await pacedOver((index) => (index === 2 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
  for (let i = 0; i < 4; i++) await list();
  // The third request met the 429, waited as asked, and was sent again in its paced slot (a
  // minute after the first); its answer, again without a limit, let the fourth go at once.
  expect(s.requests).toHaveLength(5);
  expect(waits.map((w) => w.reason)).toEqual(['rate_limited', 'pacing']);
  expect(pacer.stats()).toMatchObject({ requests: 5, rateLimited: 1, unlimited: true });
});

it('keeps pacing once a limit was reported, even if a later answer lacks the header', async () => {
  const { pacer, waits, list } = await pacedOver((index) =>
    index === 0
      ? { status: 200, headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99' } }
      : { status: 200 },
  );
  for (let i = 0; i < 3; i++) await list();
  expect(waits.map((w) => w.reason)).toEqual(['pacing', 'pacing']);
  expect(pacer.stats().unlimited).toBe(false);
});
