// The service counts the submission export in a bucket of its own (10 a minute per user) instead
// of the shared 100, and the spec says so (`x-rate-limit`, carried into the operations table):
// the pacer paces exports in that bucket, apart from every other request. Real HTTP against a
// server that counts both buckets as the service does; time is virtual (the client's Clock), and
// what is judged is the virtual time each request was sent at, as the pacer chose it.
import createClient from 'openapi-fetch';
import type { paths } from '@forms-api/types';
import { afterEach, expect, it } from 'vitest';
import { createFormsClient, createRequestPacer, type PacingWait } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { startRateLimitedServer, stampedFetch, type RateLimitedServer } from './support/rate-limited-server.js';
import { virtualClock } from './support/virtual-clock.js';

let server: RateLimitedServer | undefined;
afterEach(() => server?.close());

const EXPORTS = { name: 'export', limit: 10, matches: (req: { url: URL }) => req.url.pathname.endsWith('/export') };
const columns = { created_at: true };

it("an 11th export within a minute waits for the export bucket's next window, while shared requests neither wait for exports nor make room for them", async () => {
  const limited = (server = await startRateLimitedServer(100, 60_000, EXPORTS));
  const time = virtualClock();
  const start = time.now();
  const waits: PacingWait[] = [];
  const client = createFormsClient({
    // Under a prefix, as a self-hosted instance may be: the bucket is found after the base path.
    baseUrl: `${limited.url}/api`,
    token: TOKEN,
    clock: time.clock,
    fetch: stampedFetch(time.now),
    pacing: { requestsPerMinute: 100, onWait: (w) => waits.push(w) },
    retry: false,
  });
  const exports = Array.from({ length: 11 }, () =>
    client.operations
      .exportFormSubmissions({ path: { id: 1 }, body: { columns } })
      .then((response) => response.body?.cancel()),
  );
  const shared = Array.from({ length: 5 }, () => client.integrations.list(1));
  const results = await Promise.allSettled([...exports, ...shared]);
  expect(results.filter((r) => r.status === 'rejected')).toEqual([]);

  expect(limited.refused()).toBe(0);
  const exportedAt = limited.sentAt('export');
  const sharedAt = limited.sentAt('shared');
  expect([exportedAt.length, sharedAt.length]).toEqual([11, 5]);
  // Ten exports in the first minute, the eleventh in the next window of the export bucket.
  expect(exportedAt.slice(0, 10).every((t) => t < start + 60_000)).toBe(true);
  expect(exportedAt[10]!).toBeGreaterThanOrEqual(start + 60_000);
  // The exports queued first took no shared slot: the first shared request went out at once, and
  // every shared request went out before the eleventh export, which it did not wait for.
  expect(sharedAt[0]).toBe(start);
  expect(Math.max(...sharedAt)).toBeLessThan(exportedAt[10]!);
  // Every wait of an export was in the export bucket, and no wait of a shared request was.
  const exportWaits = waits.filter((w) => w.path.endsWith('/export'));
  expect(exportWaits.length).toBeGreaterThan(0);
  expect(exportWaits.every((w) => w.bucket === 'export')).toBe(true);
  expect(waits.filter((w) => !w.path.endsWith('/export')).every((w) => w.bucket === undefined)).toBe(true);
});

it("a plain openapi-fetch client sending through the pacer's fetch has its exports paced in the export bucket too", async () => {
  const limited = (server = await startRateLimitedServer(100, 60_000, EXPORTS));
  const time = virtualClock();
  const start = time.now();
  const pacer = createRequestPacer({ requestsPerMinute: 100, clock: time.clock });
  const plain = createClient<paths>({ baseUrl: limited.url, fetch: pacer.fetch(stampedFetch(time.now)) });
  const exportOnce = async () => {
    const { response } = await plain.POST('/open/forms/{id}/submissions/export', {
      params: { path: { id: 1 } },
      body: { columns },
      parseAs: 'stream',
    });
    await response.body?.cancel();
    return response.status;
  };
  const listOnce = async () =>
    (await plain.GET('/open/forms/{form}/integrations', { params: { path: { form: 1 } } })).response.status;
  const statuses = await Promise.all([
    ...Array.from({ length: 11 }, exportOnce),
    ...Array.from({ length: 5 }, listOnce),
  ]);
  expect(statuses.every((status) => status === 200)).toBe(true);
  expect(limited.refused()).toBe(0);
  expect(limited.sentAt('export')[10]!).toBeGreaterThanOrEqual(start + 60_000);
  expect(limited.sentAt('shared')[0]).toBe(start);
  expect(pacer.stats()).toMatchObject({ requests: 16, rateLimited: 0 });
});
