// Issue 20 #22: after a redirect chain, `err.url` is the URL the answer came from, and its query
// may carry credentials a server put there: their values are redacted by the parameter's name.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { dumps } from './support/dump.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const SECRETS = {
  password: 'hunter2-pass',
  client_secret: 'cs-0a1b2c3d',
  auth: 'auth-value-77',
  session: 'sess-4242',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.e30.sig',
  Client_Secret: 'mixed-case-99',
  access_token: 'at-123456',
  api_key: 'ak-987654',
};

it('redacts password, client_secret, auth, session, jwt (and the like) in err.url after a redirect chain, keeping the rest', async () => {
  const query = new URLSearchParams({ ...SECRETS, page: '2', per_page: '10' }).toString();
  server = await startServer((req, res) => {
    if (req.url.pathname === '/open/forms/42') {
      res.writeHead(302, { location: '/hop/1' });
      return void res.end();
    }
    if (req.url.pathname === '/hop/1') {
      res.writeHead(307, { location: `/open/forms/43?${query}#session=frag-secret` });
      return void res.end();
    }
    json(res, 404, { message: 'Not found.' });
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const err = await client.forms.get(42).catch((e: unknown) => e);
  expect(server.requests).toHaveLength(3);
  expect(err).toMatchObject({ kind: 'not_found' });
  const url = (err as { url: string }).url;
  expect(url).toContain('/open/forms/43?');
  expect(url).toContain('page=2');
  expect(url).toContain('per_page=10');
  for (const name of Object.keys(SECRETS)) expect(url).toContain(`${name}=[REDACTED]`);
  for (const dump of dumps(err))
    for (const value of [...Object.values(SECRETS), 'frag-secret']) expect(dump).not.toContain(value);
});
