// An error's message quotes the tenant (its `message`, its field errors, the start of a body that
// is not JSON): logged as it is (`console.error(err.message)`), an escape sequence in those words
// would clear the screen, retitle the window or forge a line. The message holds them escaped;
// `err.body` keeps them as sent, for a program to read.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UNPRINTABLE_CHAR } from '@forms-api/internal/printable';
import { createFormsClient, type FormsApiError } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { startServer, type TestServer } from './support/server.js';

let server: TestServer;
let answer: { status: number; type: string; body: string };
beforeAll(async () => {
  server = await startServer((_req, res) => {
    res.writeHead(answer.status, { 'content-type': answer.type });
    res.end(answer.body);
  });
});
afterAll(() => server.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('resolved'),
    (e: FormsApiError) => e,
  );

it('shows a terminal escape in the tenant words as text, and keeps the words as sent in err.body', async () => {
  answer = {
    status: 422,
    type: 'application/json',
    body: JSON.stringify({
      message: '\u001b]0;pwned\u0007\u001b[2Jcleared',
      errors: { name: ['\u001b[31mred\rFORGED'] },
    }),
  };
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const err = await failure(client.forms.get(1));
  expect(err.message).toContain('"\\x1b]0;pwned\\x07\\x1b[2Jcleared"');
  expect(err.message).toContain('name: \\x1b[31mred\\x0dFORGED');
  expect(err.body?.message).toBe('\u001b]0;pwned\u0007\u001b[2Jcleared');
});

it('leaves no character that moves the cursor, rewrites a line or reorders text in any message, whatever the tenant sends', async () => {
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const words = fc.string({ unit: 'binary', maxLength: 80 });
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.record({ status: fc.constantFrom(400, 403, 404, 422, 500), message: words }).map(({ status, message }) => ({
          status,
          type: 'application/json',
          body: JSON.stringify({ message, errors: { field: [message] } }),
        })),
        fc
          .record({ status: fc.constantFrom(502, 503), text: words.filter((t) => t.trim() !== '') })
          .map(({ status, text }) => ({ status, type: 'text/html', body: text })),
      ),
      async (sent) => {
        answer = sent;
        const err = await failure(client.forms.get(1));
        expect(err.message).not.toMatch(UNPRINTABLE_CHAR);
      },
    ),
    { numRuns: 60 },
  );
});
