// Issue 31: the client reads every answer once, within the attempt, through the one bounded
// reader, with no patched `Response.text`/`json`. What a caller sees must not change with how the
// bytes arrive: any JSON, in chunks cut anywhere (inside a UTF-8 sequence too), with or without a
// byte order mark or a Content-Length, parses as the runtime's own `Response.json()` parses it, for
// a helper and a raw call alike. A raw call's middleware reads the body as with openapi-fetch alone.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

interface Case {
  bytes: Uint8Array;
  cuts: number[];
  declared: boolean;
}

let server: TestServer;
let current: Case;

beforeAll(async () => {
  server = await startServer(async (_req, res) => {
    const { bytes, cuts, declared } = current;
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(declared ? { 'content-length': String(bytes.byteLength) } : {}),
    });
    let from = 0;
    for (const at of [...cuts, bytes.byteLength]) {
      // Each piece is flushed before the next is written, so the client reads it as a chunk.
      await new Promise<void>((resolve) => res.write(bytes.subarray(from, at), () => resolve()));
      from = at;
    }
    res.end();
  });
});
afterAll(() => server.close());

const answers = fc
  .record({
    value: fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }),
    bom: fc.boolean(),
    declared: fc.boolean(),
    cutsAt: fc.uniqueArray(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
  })
  // A form is an object: a helper's answer is whatever JSON the service sent, typed by the spec.
  .map(({ value, bom, declared, cutsAt }) => {
    const text = (bom ? '\uFEFF' : '') + JSON.stringify({ id: 1, value });
    const bytes = new TextEncoder().encode(text);
    const cuts = [...new Set(cutsAt.map((f) => Math.floor(f * bytes.byteLength)))]
      .filter((at) => at > 0 && at < bytes.byteLength)
      .sort((a, b) => a - b);
    return { bytes, cuts, declared };
  });

it('any JSON, cut into chunks anywhere, reads as the runtime reads it, by a helper and a raw call', async () => {
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  await fc.assert(
    fc.asyncProperty(answers, async (answer) => {
      current = answer;
      const expected: unknown = await new Response(answer.bytes).json();
      await expect(client.forms.get(1)).resolves.toEqual(expected);
      const { data } = await client.GET('/open/forms/{form}', { params: { path: { form: 1 } } });
      expect(data).toEqual(expected);
    }),
    { numRuns: 60 },
  );
});

it("a raw call's middleware reads the body as with openapi-fetch alone; a helper's sees it read", async () => {
  const form = { id: 7, title: 'Café ☕' };
  const other = await startServer((_req, res) => json(res, 200, form));
  try {
    const client = createFormsClient({ baseUrl: other.url, token: TOKEN });
    const seen: { bodyUsed: boolean; body?: unknown }[] = [];
    client.use({
      async onResponse({ response }) {
        seen.push(response.bodyUsed ? { bodyUsed: true } : { bodyUsed: false, body: await response.clone().json() });
        return undefined;
      },
    });
    const raw = await client.GET('/open/forms/{form}', { params: { path: { form: 7 } } });
    expect(raw.data).toEqual(form);
    await expect(client.forms.get(7)).resolves.toEqual(form);
    expect(seen).toEqual([{ bodyUsed: false, body: form }, { bodyUsed: true }]);
  } finally {
    await other.close();
  }
});
