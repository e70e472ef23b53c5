// `token: null` makes a client for the public operations that sends no Authorization header at
// all, to any operation (the contract suite's 401 checks use one); a missing token (undefined) is
// still a mistake named up front, so a forgotten environment variable never becomes a 401.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient, FormsApiError } from '../src/index.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer | undefined;
afterEach(() => server?.close());

it('sends no Authorization header, and the raw surface gets the 401 as an answer', async () => {
  const s = (server = await startServer((_req, res) => json(res, 401, { message: 'Unauthenticated.' })));
  const client = createFormsClient({ baseUrl: s.url, token: null, retry: false });
  const { response, error } = await client.GET('/open/forms/{form}', { params: { path: { form: 1 } } });
  expect(response.status).toBe(401);
  expect(error).toEqual({ message: 'Unauthenticated.' });
  await expect(client.forms.get(1)).rejects.toMatchObject({ kind: 'unauthenticated' });
  expect(s.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
  expect(s.requests[0]!.headers['user-agent']).toMatch(/^forms-api-kit-client\//);
});

it('still refuses a token left undefined, pointing at null for a client without one', () => {
  const make = () => createFormsClient({ baseUrl: 'https://api.example.com', token: undefined as unknown as string });
  expect(make).toThrow(FormsApiError);
  expect(make).toThrow(/pass `null` to send none/);
});
