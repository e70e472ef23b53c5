// docs:serve's server: files from its root on 127.0.0.1, index.html for client routes, never a
// file outside the root, and argument errors as values.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../src/serve-args.ts';
import { startStaticServer, type StaticServer } from '../src/static-server.ts';

let server: StaticServer;
const parent = mkdtempSync(join(tmpdir(), 'docs-serve-'));
const root = join(parent, 'site');

beforeAll(async () => {
  mkdirSync(root);
  writeFileSync(join(root, 'index.html'), '<h1>docs</h1>');
  writeFileSync(join(root, 'openapi.json'), '{}');
  writeFileSync(join(parent, 'secret.txt'), 'secret');
  server = await startStaticServer(root);
});
afterAll(() => server.close());

describe('startStaticServer', () => {
  it('listens on 127.0.0.1 on a free port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('serves files with their content type', async () => {
    const res = await fetch(new URL('openapi.json', server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await (await fetch(server.url)).text()).toBe('<h1>docs</h1>');
  });

  it('redirects a section path to its hash URL, answers a missing file with 404', async () => {
    const res = await fetch(new URL('verifying-webhooks/express/', server.url), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/#/verifying-webhooks/express');
    expect((await fetch(new URL('missing.png', server.url))).status).toBe(404);
  });

  it('reads a target that starts with // as a path on this server, and keeps serving', async () => {
    const get = (path: string) =>
      new Promise<{ status: number; location?: string }>((resolve, reject) => {
        request(new URL(server.url), { path }, (res) => {
          res.resume();
          resolve({ status: res.statusCode!, location: res.headers.location });
        })
          .on('error', reject)
          .end();
      });
    expect(await get('//')).toEqual({ status: 200 });
    expect(await get('//other.example/verifying-webhooks')).toEqual({
      status: 302,
      location: '/#/other.example/verifying-webhooks',
    });
    expect((await get('/openapi.json')).status).toBe(200);
  });

  it('never serves a file outside its root', async () => {
    const res = await fetch(new URL('..%2fsecret.txt', server.url));
    expect(await res.text()).not.toContain('secret');
  });
});

describe('parseServeArgs', () => {
  it('defaults to port 0 and takes --port', () => {
    const defaults = parseServeArgs([]);
    expect(defaults.ok && defaults.value.port).toBe(0);
    const parsed = parseServeArgs(['--port', '8123']);
    expect(parsed.ok && parsed.value.port).toBe(8123);
  });

  it('rejects a bad port or an unknown option with a helpful message', () => {
    const bad = parseServeArgs(['--port', 'abc']);
    expect(bad.ok ? '' : `${bad.error.kind}: ${bad.error.message}`).toMatch(/^usage: --port must be an integer/);
    const unknown = parseServeArgs(['--host', 'x']);
    expect(unknown.ok || unknown.error.kind).toBe('usage');
  });
});
