// Issue 29 #9: a slug of `.` or `..` is a dot segment, which URL parsing removes: `forms.get('..')`
// sent `GET /open/`, with the token, to another path of the service. A text path parameter that
// would not stay one segment (a dot segment, also percent-encoded, or one holding `/` or `\`) is
// refused before anything is sent, on the helpers and on the raw surface.
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createFormsClient, type FormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
let client: FormsClient;
beforeEach(async () => {
  server = await startServer((_req, res) => json(res, 200, { id: 1, properties: [] }));
  client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
});
afterEach(() => server.close());

const SIGNATURE = 'f'.repeat(64);
const REFUSED = ['.', '..', '%2e', '%2E%2e', '.%2E', '%252e%252E', 'a/b', '%2F', 'a\\b', '%5c'];

async function refused(promise: Promise<unknown>, option: string): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: 'FormsApiError', kind: 'invalid_option', option });
}

it('forms.get, answers.submit and downloadFile refuse them, and nothing reaches the server', async () => {
  for (const slug of REFUSED) {
    await refused(client.forms.get(slug), 'idOrSlug');
    await refused(client.answers.submit(slug, {}), 'formIdOrSlug');
    await refused(
      client.submissions.downloadFile({ form: slug, filename: 'abc', expires: 1, signature: SIGNATURE }),
      'file.form',
    );
  }
  // A file URL whose form segment decodes to a dot segment.
  const url = `${server.url}/open/forms/%252e%252e/submissions/file/abc?expires=1&signature=${SIGNATURE}`;
  await refused(client.submissions.downloadFile(url), 'file');
  expect(server.requests).toHaveLength(0);
});

it('the raw surface refuses them in params.path too', async () => {
  for (const form of REFUSED) {
    await refused(client.GET('/open/forms/{form}', { params: { path: { form } } }), 'params.path.form');
    await refused(client.request('get', '/open/forms/{form}', { params: { path: { form } } }), 'params.path.form');
  }
  expect(server.requests).toHaveLength(0);
});

it('for any mix of encodings of `.` and `..` (property)', async () => {
  const dot = fc.constantFrom('.', '%2e', '%2E', '%252e', '%252E', '%25252e');
  await fc.assert(
    fc.asyncProperty(fc.array(dot, { minLength: 1, maxLength: 2 }), async (dots) => {
      await refused(client.forms.get(dots.join('')), 'idOrSlug');
    }),
    { numRuns: 100 },
  );
  expect(server.requests).toHaveLength(0);
});

it('slugs with dots that are not dot segments are sent as they are', async () => {
  for (const slug of ['...', 'my.form', '.hidden', 'v1..2']) await client.forms.get(slug);
  expect(server.requests.map((r) => r.url.pathname)).toEqual([
    '/open/forms/...',
    '/open/forms/my.form',
    '/open/forms/.hidden',
    '/open/forms/v1..2',
  ]);
});
