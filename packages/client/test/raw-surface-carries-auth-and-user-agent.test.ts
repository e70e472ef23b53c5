import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createFormsClient, VERSION } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

it('raw openapi-fetch calls get the token, User-Agent, Accept and retries', async () => {
  server = await startServer((_req, res, i) =>
    i === 0 ? json(res, 503, { message: 'x' }) : json(res, 200, { data: [], meta: {} }),
  );
  const { clock } = fakeClock();
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, clock });
  const { data, error, response } = await client.GET('/open/forms/{id}/submissions', {
    params: { path: { id: 42 }, query: { status: 'partial', per_page: 5 } },
  });
  expect(error).toBeUndefined();
  expect(data).toEqual({ data: [], meta: {} });
  expect(response.status).toBe(200);
  expect(server.requests).toHaveLength(2);
  for (const req of server.requests) {
    expect(req.url.search).toBe('?status=partial&per_page=5');
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.headers['user-agent']).toBe(`forms-api-kit-client/${VERSION}`);
    expect(req.headers.accept).toBe('application/json');
  }
});

it('a custom userAgent, a baseUrl with a path prefix, and user middleware all work', async () => {
  server = await startServer((_req, res) => json(res, 200, []));
  const client = createFormsClient({ baseUrl: `${server.url}/api/`, token: TOKEN, userAgent: 'my-app/2.0' });
  client.use({
    onRequest({ request }) {
      request.headers.set('X-Trace', 'abc');
      return undefined;
    },
  });
  await client.integrations.list(42);
  expect(server.requests[0]!.url.pathname).toBe('/api/open/forms/42/integrations');
  expect(server.requests[0]!.headers['user-agent']).toBe('my-app/2.0');
  expect(server.requests[0]!.headers['x-trace']).toBe('abc');
});

it('VERSION matches package.json', () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string };
  expect(VERSION).toBe(pkg.version);
});
