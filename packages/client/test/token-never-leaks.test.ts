// Every error the client can throw is serialised every way a logger or reporter might, and the
// token must appear in none of it — even when the server echoes it back.
import { inspect } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { dumps } from './support/dump.js';
import { closedPortUrl, json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

function assertNoToken(err: unknown) {
  for (const dump of dumps(err)) {
    expect(dump).not.toContain(TOKEN);
    expect(dump).not.toContain(encodeURIComponent(TOKEN));
  }
}

it('errors from every status, with the token echoed in body, headers and an HTML page, never hold it', async () => {
  server = await startServer((req, res, i) => {
    const auth = String(req.headers.authorization);
    const status = [401, 402, 403, 404, 422, 429, 500, 418][i % 8]!;
    if (req.url.pathname.includes('/html')) {
      res.writeHead(502, { 'content-type': 'text/html', 'x-echo': auth });
      return void res.end(`<html><body>upstream said ${auth}</body></html>`);
    }
    json(
      res,
      status,
      {
        message: `Bad token ${auth}`,
        errors: { [auth]: [`token ${TOKEN} rejected`] },
        feature: TOKEN,
        nested: [{ t: encodeURIComponent(TOKEN) }],
      },
      { 'x-echo-auth': auth, 'set-cookie': `s=${TOKEN}`, 'retry-after': '1' },
    );
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const errors: unknown[] = [];
  for (let i = 0; i < 8; i++)
    errors.push(await client.submissions.list(42, { search: TOKEN }).catch((e: unknown) => e));
  errors.push(await client.forms.get('html').catch((e: unknown) => e));
  expect(errors.map((e) => (e as { kind: string }).kind)).toEqual([
    'unauthenticated',
    'plan_required',
    'missing_ability',
    'not_found',
    'validation',
    'rate_limited',
    'server',
    'http',
    'server',
  ]);
  for (const err of errors) assertNoToken(err);
  // The server did receive it: the test would be vacuous otherwise.
  expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
});

it('network, timeout, abort and option errors never hold it', async () => {
  const errors: unknown[] = [];
  const refused = createFormsClient({ baseUrl: await closedPortUrl(), token: TOKEN, retry: false });
  errors.push(await refused.forms.get(1).catch((e: unknown) => e));
  errors.push(await refused.GET('/open/forms/{form}', { params: { path: { form: 1 } } }).catch((e: unknown) => e));
  server = await startServer((_req, res) => void setTimeout(() => json(res, 200, {}), 1000));
  const slow = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false, timeoutMs: 30 });
  errors.push(await slow.forms.get(1).catch((e: unknown) => e));
  errors.push(await slow.forms.get(1, { signal: AbortSignal.abort(), timeoutMs: 5000 }).catch((e: unknown) => e));
  for (const token of [` ${TOKEN}`, `Bearer ${TOKEN}`, `${TOKEN}\n`, TOKEN.replace('|', '|\u00e9')]) {
    try {
      createFormsClient({ baseUrl: server.url, token });
    } catch (e) {
      errors.push(e);
    }
  }
  try {
    createFormsClient({ baseUrl: TOKEN, token: TOKEN });
  } catch (e) {
    errors.push(e);
  }
  expect(errors.map((e) => (e as { kind: string }).kind)).toEqual([
    'network',
    'network',
    'timeout',
    'aborted',
    'invalid_option',
    'invalid_option',
    'invalid_option',
    'invalid_option',
    'invalid_option',
  ]);
  for (const err of errors) assertNoToken(err);
});

it('the client object itself does not expose the token', () => {
  const client = createFormsClient({ baseUrl: 'http://127.0.0.1:1', token: TOKEN });
  expect(inspect(client, { depth: Infinity, showHidden: true })).not.toContain(TOKEN);
  expect(JSON.stringify(client)).not.toContain(TOKEN);
});
