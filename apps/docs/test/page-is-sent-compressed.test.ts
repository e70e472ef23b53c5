// The 2.9 MB page travels compressed: the build writes its brotli and gzip copies beside it, they
// decode to exactly the page, and docs:serve sends the copy the client accepts (issue #30, item 13:
// the uncompressed page took seconds to arrive before Redoc could start).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distDir } from '../src/build.ts';
import { acceptedEncodings, writePrecompressed } from '../src/precompress.ts';
import { startStaticServer, type StaticServer } from '../src/static-server.ts';

const root = mkdtempSync(join(tmpdir(), 'docs-compressed-'));
const page = `<h1>docs</h1>${'<p>Redoc and its state, much repeated.</p>'.repeat(2000)}`;
let server: StaticServer;

beforeAll(async () => {
  writeFileSync(join(root, 'index.html'), page);
  writePrecompressed(join(root, 'index.html'));
  writeFileSync(join(root, 'openapi.json'), '{}');
  server = await startStaticServer(root);
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** The raw answer to a GET (no decoding, unlike fetch). */
function get(path: string, acceptEncoding?: string) {
  return new Promise<{ encoding?: string; vary?: string; body: Buffer }>((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    request(new URL(path, server.url), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          encoding: res.headers['content-encoding'],
          vary: res.headers.vary,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('docs:serve', () => {
  it('sends the brotli copy to a browser that accepts it, and says the answer varies', async () => {
    const res = await get('/', 'gzip, deflate, br, zstd');
    expect(res.encoding).toBe('br');
    expect(res.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(res.body).toString()).toBe(page);
  });

  it('sends the gzip copy where brotli is not accepted, and the page itself where neither is', async () => {
    const gzip = await get('/index.html', 'br;q=0, gzip');
    expect(gzip.encoding).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(page);
    for (const accept of [undefined, 'identity', 'gzip;q=0, br;q=0']) {
      const plain = await get('/', accept);
      expect(plain.encoding).toBeUndefined();
      expect(plain.vary).toBe('accept-encoding');
      expect(plain.body.toString()).toBe(page);
    }
  });

  it('sends a file without copies as it is', async () => {
    const res = await get('/openapi.json', 'br, gzip');
    expect(res.encoding).toBeUndefined();
    expect(res.vary).toBeUndefined();
    expect(res.body.toString()).toBe('{}');
  });
});

describe('acceptedEncodings', () => {
  it('reads weights and the wildcard', () => {
    const accepts = acceptedEncodings('GZIP;q=0.5, br;q=0, *;q=0.1');
    expect([accepts('gzip'), accepts('br'), accepts('zstd')]).toEqual([true, false, true]);
    expect(acceptedEncodings('')('gzip')).toBe(false);
  });
});

describe.skipIf(!existsSync(join(distDir, 'index.html')))('the built dist/index.html', () => {
  it('has brotli and gzip copies that decode to exactly the page, in a fraction of its bytes', () => {
    const html = readFileSync(join(distDir, 'index.html'));
    const br = readFileSync(join(distDir, 'index.html.br'));
    const gz = readFileSync(join(distDir, 'index.html.gz'));
    expect(brotliDecompressSync(br).equals(html)).toBe(true);
    expect(gunzipSync(gz).equals(html)).toBe(true);
    expect(br.length).toBeLessThan(html.length / 4);
  });
});
