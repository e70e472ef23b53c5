// Regression guard: on Node 20, fetch holds a Request's signal only weakly. A streamed body (a
// download, `parseAs: 'stream'`) is read after the call returns, so the signal the attempt sent
// (the caller's joined to the attempt's timeout) must outlive the call for the caller's abort to
// reach the body; a GC in between must not cut that link.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const gc = (globalThis as { gc?: () => void }).gc;

it.runIf(gc)("the caller's abort ends a streamed body after garbage collection", async () => {
  server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    // One chunk, then nothing: only the caller's abort can end the read.
    res.write('first chunk');
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN });
  const controller = new AbortController();
  const { data } = await client.GET('/open/forms/{form}', {
    params: { path: { form: 1 } },
    parseAs: 'stream',
    signal: controller.signal,
  });
  const reader = (data as ReadableStream<Uint8Array>).getReader();
  expect((await reader.read()).done).toBe(false);
  // Weak references are cleared between turns: collect, yield, collect again.
  for (let i = 0; i < 5; i++) {
    gc!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  controller.abort();
  await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
});
