// A hostile or broken server (or a proxy in front of it) against the client: echoes of the token
// in every encoding, at any depth, through redirects; bodies that never end. Each test is bounded
// in time and memory, and each failed on the client before its fix.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFormsClient, FormsApiError } from '../src/index.js';
import { createRedactor } from '../src/redact.js';
import { TOKEN } from './support/clock.js';
import { dumps } from './support/dump.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const SECRET_HALF = TOKEN.slice(TOKEN.indexOf('|') + 1);

async function caught(promise: Promise<unknown>): Promise<FormsApiError> {
  const err = await promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FormsApiError);
  return err as FormsApiError;
}

function expectNone(err: unknown, needles: readonly string[]) {
  for (const dump of dumps(err)) for (const needle of needles) expect(dump).not.toContain(needle);
}

/** `depth` levels of objects and arrays around `leaf`, as JSON text (JSON.stringify would recurse). */
function nestedJson(depth: number, leaf: unknown): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    open += i % 2 ? '[' : `{"level":${i},"inner":`;
    close = (i % 2 ? ']' : '}') + close;
  }
  return `${open}${JSON.stringify(leaf)}${close}`;
}

// Ways a server, proxy or debug page writes one character of an echoed value.
const CHAR_ENCODINGS: ReadonlyArray<(char: string) => string> = [
  (c) => c,
  (c) => `%${hex(c).toUpperCase()}`,
  (c) => `%${hex(c)}`,
  (c) => `%${hex(c)[0]}${hex(c)[1]!.toUpperCase()}`,
  (c) => `%25${hex(c).toUpperCase()}`,
  (c) => `\\u00${hex(c)}`,
  (c) => `\\x${hex(c).toUpperCase()}`,
  (c) => `&#${c.charCodeAt(0)};`,
  (c) => `&#x${hex(c)};`,
  (c) => (/[A-Za-z0-9]/.test(c) ? c : `\\${c}`),
  (c) => (c === '+' ? ' ' : c),
];
const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');

/** A token as the client accepts it (printable ASCII, no whitespace), in the service's `<id>|<secret>` shape. */
const tokenArb = fc
  .tuple(
    fc.integer({ min: 1, max: 99_999 }),
    fc.string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 8,
      maxLength: 48,
    }),
  )
  .map(([id, secret]) => ({ token: `${id}|${secret}`, secret }));

/** The token, or its secret half, echoed in some encoding (each character its own, or the whole base64/hex). */
const echoArb = tokenArb.chain(({ token, secret }) =>
  fc.tuple(fc.constantFrom(token, secret, `Bearer ${token}`), fc.nat()).chain(([value]) =>
    fc.oneof(
      fc
        .array(fc.nat({ max: CHAR_ENCODINGS.length - 1 }), { minLength: value.length, maxLength: value.length })
        .map((ways) => ({
          token,
          secret,
          echo: [...value].map((c, i) => CHAR_ENCODINGS[ways[i]!]!(c)).join(''),
        })),
      fc.constantFrom('base64', 'base64url', 'hex', 'HEX').map((form) => {
        const bytes = Buffer.from(value);
        const echo =
          form === 'base64'
            ? bytes.toString('base64')
            : form === 'base64url'
              ? bytes.toString('base64url')
              : form === 'hex'
                ? bytes.toString('hex')
                : bytes.toString('hex').toUpperCase();
        return { token, secret, echo };
      }),
    ),
  ),
);

describe('the token, echoed back, never reaches an error', () => {
  it('at any depth of the body: redacted down to 32 levels, replaced below, never passed through', async () => {
    // The form id in the path is the depth at which the server hides the token.
    server = await startServer((req, res) => {
      const depth = Number(req.url.pathname.split('/').pop());
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(`{"message":"Not found.","deep":${nestedJson(depth, { token: TOKEN, [TOKEN]: SECRET_HALF })}}`);
    });
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
    for (const depth of [3, 21, 25, 30, 31, 32, 40, 5_000]) {
      const err = await caught(client.forms.get(depth));
      expect(err.kind).toBe('not_found');
      expectNone(err, [TOKEN, SECRET_HALF]);
      const text = JSON.stringify(err.body);
      // Shallow echoes stay, redacted; deeper ones are replaced by a marker, not dropped silently.
      expect(text).toContain(depth < 31 ? '[REDACTED]' : 'nested deeper than 32 levels');
    }
  });

  it('percent-encoded in lower or mixed case, and the secret half alone', async () => {
    const lower = TOKEN.replace('|', '%7c');
    const mixed = encodeURIComponent(TOKEN).replace('%7C', '%7c').replace(/e/g, '%65');
    const echoes = [lower, mixed, SECRET_HALF, `token=${[...SECRET_HALF].map((c) => `%${hex(c)}`).join('')}`];
    server = await startServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'x-echo': echoes.join(' ') });
      res.end(`<html><body>upstream said ${echoes.join(' and ')}</body></html>`);
    });
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
    const err = await caught(client.forms.get(1));
    expect(err.kind).toBe('server');
    expectNone(err, [TOKEN, ...echoes]);
    expect(err.bodyText).toContain('upstream said [REDACTED] and [REDACTED]');
  });

  it('in the URL of a same-origin redirect: neither err.url nor err.operation.params holds it', async () => {
    server = await startServer((req, res) => {
      if (req.url.pathname === '/open/forms/42') {
        res.writeHead(302, { location: `/open/forms/${encodeURIComponent(TOKEN)}?t=${SECRET_HALF}` });
        return void res.end();
      }
      json(res, 404, { message: 'Not found.' });
    });
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
    const err = await caught(client.forms.get(42));
    expect(server.requests).toHaveLength(2);
    expect(err).toMatchObject({ kind: 'not_found', operation: { operationId: 'getForm', params: { form: '42' } } });
    expectNone(err, [TOKEN, encodeURIComponent(TOKEN), SECRET_HALF]);
  });

  // No clock: about 100,000 near-misses in 8 MiB, so a redactor that went back over the body at
  // each (quadratic) would make some 10^11 steps, hours past this test's bound; a linear one reads
  // it in seconds, even on a shared machine.
  it('in a large body made of near-misses, redaction stays linear and still finds the echo at its end', async () => {
    const nearMiss = `${TOKEN.slice(0, -1)}% &#; \\x ${SECRET_HALF.slice(0, -1)}%25`;
    const body = `${nearMiss.repeat(Math.floor((8 * 1024 * 1024) / nearMiss.length))}${TOKEN.replace('|', '&#x7c;')}`;
    server = await startServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain', 'x-echo': body.slice(-200) });
      res.end(body);
    });
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
    const err = await caught(client.forms.get(1));
    expect(err.kind).toBe('server');
    expectNone(err, [TOKEN, TOKEN.replace('|', '&#x7c;'), SECRET_HALF]);
  }, 120_000);

  it('for any token and any encoding a server or proxy could echo (property, end to end)', async () => {
    let current = { echo: '' };
    server = await startServer((req, res) => {
      const { echo } = current;
      if (req.url.pathname.endsWith('/html')) {
        res.writeHead(503, { 'content-type': 'text/html', 'x-echo': echo });
        return void res.end(`<p>${echo}</p>`);
      }
      const body = `{"message":${JSON.stringify(`bad ${echo}`)},"errors":{${JSON.stringify(echo)}:[${JSON.stringify(echo)}]},"nested":${nestedJson(8, echo)}}`;
      res.writeHead(422, { 'content-type': 'application/json', 'x-echo': echo });
      res.end(body);
    });
    await fc.assert(
      fc.asyncProperty(echoArb, async ({ token, secret, echo }) => {
        current = { echo };
        const client = createFormsClient({ baseUrl: server.url, token, retry: false });
        for (const promise of [client.forms.get('json'), client.forms.get('html')]) {
          const err = await caught(promise);
          const needles = [echo, token, secret];
          for (const dump of dumps(err)) for (const needle of needles) if (dump.includes(needle)) return false;
        }
        return true;
      }),
      { numRuns: 60 },
    );
  }, 30_000);

  it('the redactor alone, for any token, encoding and surrounding text (property)', () => {
    fc.assert(
      fc.property(echoArb, fc.string(), fc.string(), ({ token, secret, echo }, before, after) => {
        const out = createRedactor(token)(`${before}${echo}${after}`);
        return !out.includes(echo) && !out.includes(token) && !out.includes(secret);
      }),
      { numRuns: 3_000 },
    );
  }, 30_000);
});

describe('a body that never ends, or is too large, stops at maxResponseBytes', () => {
  const MiB = 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, 'a');

  /** Streams `chunk`s until `limit` bytes or the client hangs up; counts what it wrote. */
  function streamingServer(opts: { status: number; limit?: number; contentLength?: number }) {
    const written = { bytes: 0, hungUp: false };
    const started = startServer((_req, res) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (opts.contentLength !== undefined) headers['content-length'] = String(opts.contentLength);
      res.writeHead(opts.status, headers);
      let open = true;
      res.on('close', () => {
        open = false;
        written.hungUp = true;
      });
      const pump = () => {
        while (open && written.bytes < (opts.limit ?? Infinity)) {
          written.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (open) res.end();
      };
      pump();
    });
    return { started, written };
  }

  it('an endless success body fails with response_too_large soon after the cap, not at the timeout', async () => {
    const { started, written } = streamingServer({ status: 200 });
    server = await started;
    // A timeout far past the test's bound: a `response_too_large` can only come from the cap.
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 600_000, maxResponseBytes: MiB });
    const err = await caught(client.forms.get(1));
    expect(err).toMatchObject({
      kind: 'response_too_large',
      status: 200,
      attempts: 1,
      operation: { operationId: 'getForm' },
    });
    expect(err.message).toContain('larger than `maxResponseBytes` (1048576 bytes)');
    // The connection was released: the client hung up a few buffers past the cap.
    await vi.waitFor(() => expect(written.hungUp).toBe(true));
    expect(written.bytes).toBeLessThan(16 * MiB);
  });

  it('an endless error body too, on the helpers and on the raw surface', async () => {
    const { started } = streamingServer({ status: 500 });
    server = await started;
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false, maxResponseBytes: MiB });
    await expect(client.submissions.list(42)).rejects.toMatchObject({ kind: 'response_too_large', status: 500 });
    await expect(client.GET('/open/forms/{form}', { params: { path: { form: 1 } } })).rejects.toMatchObject({
      kind: 'response_too_large',
    });
    // A call may allow more, or less, than its client.
    await expect(client.forms.get(1, { maxResponseBytes: 128 * 1024 })).rejects.toMatchObject({
      kind: 'response_too_large',
    });
  });

  it('a Content-Length over the cap fails before any of the body is read', async () => {
    const { started, written } = streamingServer({ status: 200, contentLength: 1024 * MiB, limit: 256 * 1024 });
    server = await started;
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, maxResponseBytes: MiB });
    const err = await caught(client.forms.get(1));
    expect(err).toMatchObject({ kind: 'response_too_large' });
    expect(err.message).toContain('Content-Length: 1073741824');
    expect(written.bytes).toBeLessThanOrEqual(256 * 1024);
  });

  it('a small compressed body that expands past the cap (a decompression bomb) is caught while it expands', async () => {
    const { gzipSync } = await import('node:zlib');
    const bomb = gzipSync(Buffer.alloc(64 * MiB, ' '));
    expect(bomb.length).toBeLessThan(MiB);
    server = await startServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      });
      res.end(bomb);
    });
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, maxResponseBytes: 2 * MiB });
    await expect(client.forms.get(1)).rejects.toMatchObject({ kind: 'response_too_large' });
  });

  it('the default cap is 32 MiB', async () => {
    // Finite, so that a client without a cap reads it whole (and fails on the JSON) in bounded memory.
    const { started } = streamingServer({ status: 200, limit: 40 * MiB });
    server = await started;
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 8_000 });
    const err = await caught(client.forms.get(1));
    expect(err.kind).toBe('response_too_large');
    expect(err.message).toContain('(33554432 bytes)');
  });

  it('a body within the cap, with or without Content-Length, is read whole', async () => {
    const body = JSON.stringify({ id: 1, padding: 'x'.repeat(100_000) });
    server = await startServer((req, res) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (req.url.pathname.endsWith('/1')) headers['content-length'] = String(Buffer.byteLength(body));
      res.writeHead(200, headers);
      res.end(body);
    });
    const client = createFormsClient({ baseUrl: server.url, token: TOKEN, maxResponseBytes: body.length });
    await expect(client.forms.get(1)).resolves.toMatchObject({ id: 1 });
    await expect(client.forms.get(2)).resolves.toMatchObject({ id: 1 });
    const { data, response } = await client.GET('/open/forms/{form}', { params: { path: { form: 2 } } });
    expect(data).toMatchObject({ id: 1 });
    expect(response.url).toBe(`${server.url}/open/forms/2`);
  });
});
