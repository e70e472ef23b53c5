// The published builds, not the source: both the ESM and the CommonJS entry must create a client
// that reaches a server (the CJS build once got openapi-fetch's exports object instead of its
// createClient through Node's interop). Needs `pnpm build` first, as turbo's test task does.
import { createRequire } from 'node:module';
import { afterEach, expect, it } from 'vitest';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

type Entry = typeof import('../src/index.js');

it.each([
  ['ESM', async () => (await import('../dist/index.js' as string)) as Entry],
  ['CommonJS', async () => createRequire(import.meta.url)('../dist/index.cjs') as Entry],
])('the %s build creates a working client', async (_name, load) => {
  server = await startServer((_req, res) => json(res, 404, { message: 'Not found.' }));
  const { createFormsClient, FormsApiError } = await load();
  const client = createFormsClient({ baseUrl: server.url, token: 't' });
  const err = await client.forms.get('missing').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FormsApiError);
  expect(err).toMatchObject({ kind: 'not_found', status: 404 });
});
