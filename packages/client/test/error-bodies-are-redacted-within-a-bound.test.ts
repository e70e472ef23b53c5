// Issue 29 #12: a 32 MiB error body was parsed and redacted whole, in one synchronous pass (a
// stall of 4 to 14 s), for an error that keeps 300 characters of it. Only the first
// ERROR_BODY_LIMIT characters of an error body are parsed and redacted now, whatever its size;
// an echo of the token cut by that bound is redacted as far as it goes.
import fc from 'fast-check';
import { afterEach, expect, it, vi } from 'vitest';
import { createFormsClient, FormsApiError } from '../src/index.js';
import { ERROR_BODY_LIMIT } from '../src/failures.js';
import { createRedactor, REDACTED } from '../src/redact.js';
import { TOKEN } from './support/clock.js';
import { dumps } from './support/dump.js';
import { startServer, type TestServer } from './support/server.js';

// Every character the client's redactor is given, counted: the work of redaction.
const redacted = vi.hoisted(() => ({ characters: 0 }));
vi.mock('../src/redact.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/redact.js')>();
  return {
    ...real,
    createRedactor: (tokens: string | readonly string[]) => {
      const redact = real.createRedactor(tokens);
      return (text: string, options?: { cut?: boolean }) => {
        redacted.characters += text.length;
        return redact(text, options);
      };
    },
  };
});

let server: TestServer;
afterEach(() => server?.close());

const SECRET_HALF = TOKEN.slice(TOKEN.indexOf('|') + 1);
const SIZE = 24 * 1024 * 1024; // under the default maxResponseBytes (32 MiB)

async function errorOf(status: number, contentType: string, body: string): Promise<FormsApiError> {
  server = await startServer((_req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  redacted.characters = 0;
  const err = await client.forms.get(1).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FormsApiError);
  return err as FormsApiError;
}

// What an error's own fields (message, url, operation, headers) cost besides the body's excerpt.
const BOUND = ERROR_BODY_LIMIT + 4_096;

it('a 24 MiB text error body: only its start is redacted and kept, and the message says so', async () => {
  const err = await errorOf(502, 'text/html', `<html>${'x'.repeat(SIZE)} ${TOKEN}</html>`);
  expect(redacted.characters).toBeLessThan(BOUND);
  expect(err.kind).toBe('server');
  expect(err.bodyText!.length).toBeLessThanOrEqual(301);
  expect(err.message).toContain(`The body (${SIZE + TOKEN.length + 14} characters) is too long to keep`);
  for (const dump of dumps(err)) expect(dump).not.toContain(SECRET_HALF);
});

it('a 24 MiB JSON error body is not parsed whole either: its start is kept as text', async () => {
  const body = JSON.stringify({
    message: 'The given data was invalid.',
    errors: { name: ['Required.'] },
    pad: 'x'.repeat(SIZE),
  });
  const err = await errorOf(422, 'application/json', body);
  expect(redacted.characters).toBeLessThan(BOUND);
  expect(err.kind).toBe('validation');
  expect(err.body).toBeUndefined();
  expect(err.bodyText).toMatch(/^\{"message":"The given data was invalid\."/);
  expect(err.message).toContain('is too long to keep');
});

it('a 404 with a long body is not said to come from a server that is not JSON', async () => {
  const err = await errorOf(404, 'application/json', JSON.stringify({ message: 'Not found.', pad: 'x'.repeat(SIZE) }));
  expect(redacted.characters).toBeLessThan(BOUND);
  expect(err.message).not.toContain('is not JSON');
});

it('an echo of the token that the cut ends is redacted as far as it goes, for any encoding and any cut (property)', () => {
  const encodings: ReadonlyArray<(c: string) => string> = [
    (c) => c,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    (c) => `%25${c.charCodeAt(0).toString(16)}`,
    (c) => `\\u00${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
    (c) => `&#${c.charCodeAt(0)};`,
    (c) => `&#x${c.charCodeAt(0).toString(16)};`,
    (c) => `${c}\u0000`,
  ];
  const secret = fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: 8,
    maxLength: 48,
  });
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 99_999 }),
      secret,
      fc.boolean(),
      fc.infiniteStream(fc.nat({ max: encodings.length - 1 })),
      fc.nat(),
      (id, half, whole, ways, at) => {
        const token = `${id}|${half}`;
        const value = whole ? token : half;
        const echo = [...value].map((c) => encodings[ways.next().value!]!(c)).join('');
        const end = 1 + (at % echo.length);
        const out = createRedactor(token)(`said${echo.slice(0, end)}`, { cut: true });
        // All of the echo's start is gone: at most the text before it is left, and what may
        // follow a whole echo (the `;` a numeric entity may do without, a NUL after the last character).
        const after = out.slice(out.lastIndexOf(REDACTED) + REDACTED.length);
        return out.includes(REDACTED) && /^[;\u0000]?$/.test(after) && out.length <= 'said;'.length + REDACTED.length;
      },
    ),
    { numRuns: 3_000 },
  );
});

it('the start of a hex or base64 echo at the cut is redacted too', () => {
  const redact = createRedactor(TOKEN);
  for (const echo of [Buffer.from(TOKEN).toString('hex'), Buffer.from(`x${SECRET_HALF}`).toString('base64')]) {
    for (let end = echo.length - 8; end < echo.length; end++) {
      const out = redact(`said ${echo.slice(0, end)}`, { cut: true });
      expect(out).toMatch(/\[REDACTED\]$/);
    }
  }
});
