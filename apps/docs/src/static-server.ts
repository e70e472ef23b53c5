// A tiny static file server for dist/ on 127.0.0.1. The site routes with hash URLs
// (/#/verifying-webhooks), which work on any static host; here a section's path without the hash
// (/verifying-webhooks, as a reader may type or share it) is redirected to its hash URL. A file
// with a precompressed copy beside it (src/precompress.ts) is sent encoded to a client that accepts it.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { acceptedEncodings, PRECOMPRESSED } from './precompress.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

function fileAt(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const candidate = normalize(join(root, decoded));
  // Never serve anything outside root, whatever `..` the path holds.
  if (candidate !== root && !candidate.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  try {
    const stat = statSync(candidate);
    if (stat.isFile()) return candidate;
    if (stat.isDirectory() && statSync(join(candidate, 'index.html')).isFile()) return join(candidate, 'index.html');
  } catch {
    // not there: fall through
  }
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function startStaticServer(root: string, port = 0): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    // The target is a path (`/a?b`), read on this origin: as a URL relative to a base, `//x` would
    // name another host, and `//` alone throws, which ended the server.
    if (!req.url?.startsWith('/')) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('the request target must be a path\n');
      return;
    }
    const path = new URL(`http://127.0.0.1${req.url}`).pathname;
    const file = fileAt(root, path);
    if (!file && extname(path) === '' && fileAt(root, '/index.html')) {
      // The route is the path, without its slashes at either end (`/a/b/` → `#/a/b`).
      res.writeHead(302, { location: `/#/${path.replace(/^\/+|\/+$/g, '')}`, 'cache-control': 'no-cache' }).end();
      return;
    }
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    const accepts = acceptedEncodings(req.headers['accept-encoding']);
    const copies = PRECOMPRESSED.filter((p) => isFile(file + p.suffix));
    const encoded = copies.find((p) => accepts(p.encoding));
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      ...(encoded ? { 'content-encoding': encoded.encoding } : {}),
      // Whether a copy is encoded depends on the request's Accept-Encoding, for any cache between.
      ...(copies.length > 0 ? { vary: 'accept-encoding' } : {}),
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(encoded ? file + encoded.suffix : file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${actual}/`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
