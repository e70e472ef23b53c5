// Issue 20 #23: the service runs an update's side effects again (it re-sends the submission's
// webhooks), so an update (PUT) is not sent again once it may have reached the service, unless
// the caller opts in with `retry: { unsafe: true }`. It is sent again when it certainly did not
// arrive (the connection was refused) or the service refused it unprocessed (429).
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { manualTimers } from './support/manual-timers.js';
import { closedPortUrl, json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const updated = { message: 'Submission updated.', data: {} };

function failingOnce(status: number, headers: Record<string, string> = {}) {
  return startServer((_req, res, i) =>
    i === 0 ? json(res, status, { message: 'Service Unavailable' }, headers) : json(res, 200, updated),
  );
}

it('a PUT answered 503 by a gateway is not sent again: it may have updated (and re-sent webhooks)', async () => {
  server = await failingOnce(503);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock: fakeClock().clock });
  const err = await client.submissions
    .update({ form: 42, submission: 7, answers: { name: 'Jane' } })
    .catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'server', status: 503, attempts: 1 });
  expect(server.requests).toHaveLength(1);
});

it('nor after a 502, a 504 or a timeout', async () => {
  for (const status of [502, 504]) {
    server = await failingOnce(status);
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock: fakeClock().clock });
    await expect(
      client.integrations.update({
        form: 42,
        integration: 3,
        input: { integration_id: 'webhook', status: 'active', data: { webhook_url: 'https://e.com' } },
      }),
    ).rejects.toMatchObject({ attempts: 1 });
    expect(server.requests).toHaveLength(1);
    await server.close();
  }
  // Never answers: the attempt times out once the server holds the whole request.
  const timers = manualTimers();
  server = await startServer(() => timers.fire());
  const client = createFormsClient({
    baseUrl: server.url,
    token: TOKEN,
    clock: { ...fakeClock().clock, timer: timers.timer },
    timeoutMs: 100,
  });
  await expect(client.submissions.update({ form: 42, submission: 7, answers: { name: 'Jane' } })).rejects.toMatchObject(
    {
      kind: 'timeout',
      attempts: 1,
    },
  );
  expect(server.requests).toHaveLength(1);
});

it('is sent again after a 429 (refused unprocessed) or a refused connection (never arrived)', async () => {
  server = await failingOnce(429, { 'retry-after': '1' });
  const { clock, delays } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
  await expect(client.submissions.update({ form: 42, submission: 7, answers: { name: 'Jane' } })).resolves.toEqual(
    updated,
  );
  expect(server.requests).toHaveLength(2);
  expect(delays).toEqual([1_000]);

  const refused = createFormsClient({ baseUrl: await closedPortUrl(), token: TOKEN, clock: fakeClock().clock });
  await expect(
    refused.submissions.update({ form: 42, submission: 7, answers: { name: 'Jane' } }),
  ).rejects.toMatchObject({
    kind: 'network',
    attempts: 3,
  });
});

it('retry: { unsafe: true } opts in: the PUT is sent again after a 503', async () => {
  server = await failingOnce(503);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock: fakeClock().clock });
  await expect(
    client.submissions.update({ form: 42, submission: 7, answers: { name: 'Jane' } }, { retry: { unsafe: true } }),
  ).resolves.toEqual(updated);
  expect(server.requests).toHaveLength(2);
  expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
});

it('GET and DELETE are still retried after a 503', async () => {
  server = await failingOnce(503);
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock: fakeClock().clock });
  await client.integrations.delete({ form: 42, integration: 3 });
  expect(server.requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
});
