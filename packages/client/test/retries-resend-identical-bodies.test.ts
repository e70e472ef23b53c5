// A request sent again carries the same body, headers and token. PUTs after a 5xx or a broken
// connection are sent again only with `retry: { unsafe: true }` (issue 20 #23: the service re-runs
// an update's side effects), which these tests opt into.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

it('sends a fresh Request per attempt: the server sees the same PUT body and headers each time', async () => {
  server = await startServer((_req, res, i) => {
    if (i < 2) return json(res, i === 0 ? 502 : 503, { message: 'Bad Gateway' });
    json(res, 200, { message: 'ok', data: { submission_id: 7, form_id: 42, submitted_at: '2025-01-01', data: {} } });
  });
  const { clock } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
  const answers = { 'field-a': 'Jane — ünïcødé', 'field-b': [1, 2], 'field-c': null };
  const result = await client.submissions.update(
    { form: 42, submission: 7, answers },
    { completionTime: 31, retry: { unsafe: true } },
  );
  expect(result.data.submission_id).toBe(7);
  expect(server.requests).toHaveLength(3);
  const expected = { ...answers, completion_time: 31 };
  for (const req of server.requests) {
    expect(req.method).toBe('PUT');
    expect(req.url.pathname).toBe('/open/forms/42/submissions/7');
    expect(JSON.parse(req.body)).toEqual(expected);
    expect(req.body).toBe(server.requests[0]!.body);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
  }
});

it('re-sends an integration PUT body intact after a network failure', async () => {
  server = await startServer((_req, res, i) => {
    if (i === 0) return void res.socket?.destroy();
    json(res, 200, { type: 'success', message: 'saved', form_integration: {} });
  });
  const { clock } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
  const input = {
    integration_id: 'webhook',
    status: 'active',
    data: { webhook_url: 'https://example.com/h' },
  } as const;
  await client.integrations.update({ form: 42, integration: 3, input }, { retry: { unsafe: true } });
  expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([input, input]);
});

it('a fetch passed in the options gets a fresh Request per attempt, with the body, token and a signal', async () => {
  const seen: Request[] = [];
  const { clock } = fakeClock();
  const client = createFormsClient({
    baseUrl: 'http://127.0.0.1:9',
    token: TOKEN,
    clock,
    fetch: async (request) => {
      seen.push(request);
      if (seen.length < 3) return new Response('{"message":"down"}', { status: 503 });
      return Response.json({ message: 'ok', data: { submission_id: 7, form_id: 42, submitted_at: '', data: {} } });
    },
  });
  await client.submissions.update({ form: 42, submission: 7, answers: { a: 'b' } }, { retry: { unsafe: true } });
  expect(seen).toHaveLength(3);
  expect(new Set(seen).size).toBe(3);
  for (const request of seen) {
    expect(await request.text()).toBe('{"a":"b"}');
    expect(request.signal).toBeInstanceOf(AbortSignal);
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  }
});
