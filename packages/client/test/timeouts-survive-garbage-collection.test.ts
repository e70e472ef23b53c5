// Regression: on Node 20, fetch holds a Request's abort signal weakly, so after a GC an
// AbortSignal.timeout/any signal could be collected and the timeout would never fire. The
// transport keeps each attempt's Request and signals alive; this test collects garbage
// continuously while waiting for the timeout.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const gc = (globalThis as { gc?: () => void }).gc;

it.runIf(gc)('a timeout fires while headers, or the body, are late, whatever the GC does', async () => {
  server = await startServer((req, res) => {
    if (req.url.pathname.endsWith('/body')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":');
    }
    // Nothing more is ever sent: only the client's 100 ms timer can end the call.
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 100, retry: false });
  const collector = setInterval(() => gc!(), 5);
  try {
    for (const slug of ['head', 'body']) {
      await expect(client.forms.get(slug)).rejects.toMatchObject({ kind: 'timeout' });
    }
    await expect(client.GET('/open/forms/{form}', { params: { path: { form: 'head' } } })).rejects.toMatchObject({
      kind: 'timeout',
    });
  } finally {
    clearInterval(collector);
  }
});

// A fetch of the caller's is handed a Request built from the attempt's (request, init): nothing
// held it while a pass-through fetch waited, a GC took it, and the call never ended (found in the
// contract suite's CI run, 2026-11-30; a hang on Node 20 and 24 before the client held it).
// Both shapes: the Request passed on, and passed with an init of the caller's (the contract
// suite's recording fetch adds headers and `redirect: 'manual'` so).
it.runIf(gc).each([
  ['passes the Request on', (request: Request) => globalThis.fetch(request)],
  [
    'passes it with an init of its own',
    (request: Request) =>
      globalThis.fetch(request, {
        headers: { ...Object.fromEntries(request.headers), 'x-extra': '1' },
        redirect: 'manual',
      }),
  ],
])("a timeout fires through a fetch of the caller's that %s, whatever the GC does", async (_, fetch) => {
  server = await startServer(() => {
    // Never answers: only the client's 100 ms timer can end the call.
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 100, retry: false, fetch });
  const collector = setInterval(() => gc!(), 5);
  try {
    for (let i = 0; i < 5; i++) await expect(client.forms.get('head')).rejects.toMatchObject({ kind: 'timeout' });
  } finally {
    clearInterval(collector);
  }
});
