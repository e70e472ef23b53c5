// The redactor against the shared vectors (test/vectors/redaction.json, also read by the contract
// suite's tests): every way a server, proxy or debug page could echo the token or its secret half,
// alone and end to end through every part of an error. Issue 20 #21 added UTF-16, line-wrapped,
// `\u{..}`, entities without `;`, quoted-printable, octal and `%uXXXX` echoes.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFormsClient, FormsApiError } from '../src/index.js';
import { createRedactor } from '../src/redaction.js';
import { dumps } from './support/dump.js';
import { startServer, type TestServer } from './support/server.js';

interface Vectors {
  token: string;
  secretHalf: string;
  echoes: Array<{ name: string; issue: string; echo: string }>;
  clean: string[];
}
const vectors = JSON.parse(readFileSync(new URL('./vectors/redaction.json', import.meta.url), 'utf8')) as Vectors;
const { token, secretHalf } = vectors;

/** A text as a reader would search it: without whitespace, NULs or their JSON escapes. */
const squeezed = (text: string) => text.replace(/\\u0000|[\s\u0000]/g, '');

describe('the redactor alone', () => {
  const redact = createRedactor(token);
  it.each(vectors.echoes)('replaces $name ($issue)', ({ echo }) => {
    const out = redact(`upstream said: ${echo} (end)`);
    expect(out).toContain('[REDACTED]');
    expect(squeezed(out)).not.toContain(squeezed(echo));
    expect(squeezed(out)).not.toContain(secretHalf);
    expect(out.startsWith('upstream said: ')).toBe(true);
    expect(out.endsWith(' (end)')).toBe(true);
  });

  it.each(vectors.clean)('keeps %j as it is', (text) => {
    expect(redact(text)).toBe(text);
  });
});

describe('end to end: an echo in a body reaches no part of the error', () => {
  let server: TestServer;
  let current = '';
  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.url.pathname.endsWith('/1')) {
        res.writeHead(502, { 'content-type': 'text/html' });
        return void res.end(`<html><body><pre>upstream said:\n${current}\n</pre></body></html>`);
      }
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `invalid ${current}`, errors: { token: [current] } }));
    });
  });
  afterAll(() => server.close());

  it.each(vectors.echoes)('$name ($issue): not in message, bodyText, body or any dump', async ({ echo }) => {
    current = echo;
    const client = createFormsClient({ baseUrl: server.url, token, retry: false });
    for (const call of [client.forms.get(1), client.forms.get(2)]) {
      const err = await call.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FormsApiError);
      for (const dump of dumps(err)) {
        expect(squeezed(dump)).not.toContain(secretHalf);
        expect(squeezed(dump)).not.toContain(squeezed(echo));
      }
    }
  });
});
