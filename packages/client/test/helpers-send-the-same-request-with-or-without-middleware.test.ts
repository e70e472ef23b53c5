// Helpers build their requests themselves when no middleware is registered, and go through
// openapi-fetch when some is (so that middleware sees every call). Both ways must send the same
// request and read the same answer: every helper is called both ways and compared.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient, type FormsClient } from '../src/index.js';
import { fakeClock, TOKEN } from './support/clock.js';
import { json, startServer, type SeenRequest, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const integration = { integration_id: 'webhook', status: 'active', data: { webhook_url: 'https://example.com/h?a=1&b=é' } } as const;

/** Every helper, with arguments that exercise path, query and body encoding. */
const calls: Array<[string, (c: FormsClient) => Promise<unknown>]> = [
  ['forms.list', (c) => c.forms.list(12, { page: 2, perPage: 5 })],
  ['forms.get by slug', (c) => c.forms.get('my form?ü&x=#1')],
  ['forms.get by id', (c) => c.forms.get(42)],
  ['submissions.list', (c) => c.submissions.list(42, { search: 'jane & joe=1', status: 'all', perPage: 3, page: 1 })],
  ['submissions.update', (c) => c.submissions.update(42, 7, { 'field-a': 'Jane — ü', 'field-b': [1, 2] }, { completionTime: 3 })],
  ['integrations.list', (c) => c.integrations.list(42)],
  ['integrations.create', (c) => c.integrations.create(42, integration)],
  ['integrations.update', (c) => c.integrations.update(42, 3, integration)],
  ['integrations.delete', (c) => c.integrations.delete(42, 3)],
  ['integrations.events', (c) => c.integrations.events(42, 3)],
  ['answers.submit', (c) => c.answers.submit('slug', { 'field-a': 'x' })],
];

function seen(r: SeenRequest) {
  const { authorization, accept, 'user-agent': userAgent, 'content-type': contentType } = r.headers;
  return { method: r.method, path: `${r.url.pathname}${r.url.search}`, authorization, accept, userAgent, contentType, body: r.body };
}

function clients(url: string) {
  const { clock } = fakeClock();
  const direct = createFormsClient({ baseUrl: `${url}/prefix`, token: TOKEN, clock });
  const viaOpenapiFetch = createFormsClient({ baseUrl: `${url}/prefix`, token: TOKEN, clock });
  viaOpenapiFetch.use({ onRequest: () => undefined });
  return { direct, viaOpenapiFetch };
}

it('sends the same method, URL, headers and body, and returns the same data', async () => {
  server = await startServer((req, res) =>
    req.method === 'DELETE' ? void res.writeHead(204).end() : json(res, 200, { echo: req.url.pathname, n: [1, { a: null }] }),
  );
  const { direct, viaOpenapiFetch } = clients(server.url);
  for (const [name, call] of calls) {
    const before = server.requests.length;
    const a = await call(direct);
    const b = await call(viaOpenapiFetch);
    expect(b, name).toEqual(a);
    const [first, second] = server.requests.slice(before).map(seen);
    expect(second, name).toEqual(first);
  }
  expect(server.requests.find((r) => r.url.pathname.endsWith('/answer'))!.headers.authorization).toBeUndefined();
});

it('reads empty, text and error answers the same way, and throws the same errors', async () => {
  server = await startServer((req, res) => {
    const kind = req.url.pathname.split('/').pop();
    if (kind === 'empty') return void res.writeHead(200, { 'content-type': 'application/json' }).end();
    if (kind === 'zero') return void res.writeHead(200, { 'content-length': '0' }).end();
    if (kind === 'html') return void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>');
    if (kind === 'invalid') return json(res, 422, { message: 'Bad.', errors: { a: ['Bad.'] } });
    if (kind === 'notjson') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
    json(res, 403, { message: 'This action is unauthorized.' });
  });
  const { direct, viaOpenapiFetch } = clients(server.url);
  for (const slug of ['empty', 'zero', 'html', 'invalid', 'notjson', 'denied']) {
    const outcome = async (c: FormsClient) =>
      c.forms.get(slug, { retry: false }).then(
        (data) => ({ data }),
        (e: { kind: string; message: string; status?: number; body?: unknown; bodyText?: string }) => ({
          kind: e.kind,
          message: e.message,
          status: e.status,
          body: e.body,
          bodyText: e.bodyText,
        }),
      );
    expect(await outcome(viaOpenapiFetch), slug).toEqual(await outcome(direct));
  }
});

it('middleware sees helper calls once registered, and no longer once ejected', async () => {
  server = await startServer((_req, res) => json(res, 200, {}));
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  const tagged: string[] = [];
  const middleware = {
    onRequest({ request }: { request: Request }) {
      tagged.push(new URL(request.url).pathname);
      request.headers.set('X-Trace', 'abc');
      return undefined;
    },
  };
  await client.forms.get(1);
  client.use(middleware);
  await client.forms.get(2);
  client.eject(middleware);
  await client.forms.get(3);
  expect(tagged).toEqual(['/open/forms/2']);
  expect(server.requests.map((r) => r.headers['x-trace'])).toEqual([undefined, 'abc', undefined]);
});
