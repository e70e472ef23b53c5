import { afterEach, expect, it } from 'vitest';
import { createFormsClient, FormsApiError } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { dumps } from './support/dump.js';
import { json, startServer, type TestServer } from './support/server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const SIGNATURE = 'ab'.repeat(32);
const FILENAME = Buffer.from('scan of receipt.png').toString('base64url');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(4096, 7)]);

/** The service: a signed file route that answers the file itself, or redirects to `storage`. */
async function service(opts: { storage?: string; file?: Buffer; slowMs?: number } = {}) {
  const server = await startServer((req, res) => {
    const match = /^\/open\/forms\/([^/]+)\/submissions\/file\/([^/]+)$/.exec(req.url.pathname);
    if (!match) return json(res, 404, { message: 'no route' });
    if (req.url.searchParams.get('signature') !== SIGNATURE) return json(res, 403, { message: 'Invalid signature.' });
    if (match[2] !== FILENAME) return json(res, 404, { type: 'error', message: 'File not found.' });
    if (opts.storage) {
      res.writeHead(302, {
        location: `${opts.storage}/bucket/forms/${match[1]}/receipt.png?X-Amz-Signature=deadbeef&X-Amz-Expires=60`,
      });
      return void res.end();
    }
    const file = opts.file ?? PNG;
    res.writeHead(200, {
      'content-type': 'image/png',
      'content-disposition': 'attachment; filename="receipt.png"',
      'content-length': file.length,
    });
    if (!opts.slowMs) return void res.end(file);
    // Half now, half later: the body takes longer than the client's timeout.
    res.write(file.subarray(0, file.length / 2));
    setTimeout(() => res.end(file.subarray(file.length / 2)), opts.slowMs);
  });
  servers.push(server);
  return server;
}

async function storage() {
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
    res.end(PNG);
  });
  servers.push(server);
  return server;
}

const fileUrl = (base: string, form: number | string = 42) =>
  `${base}/open/forms/${form}/submissions/file/${FILENAME}?expires=1893456000&signature=${SIGNATURE}`;

it("downloads a file_url as a streamed Response with the file's content type, and sends no token", async () => {
  const api = await service();
  const client = createFormsClient({ baseUrl: api.url, token: TOKEN });
  const response = await client.submissions.downloadFile(fileUrl(api.url));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  expect(response.bodyUsed).toBe(false);
  expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
  expect(api.requests[0]!.headers.authorization).toBeUndefined();
  // Sent exactly as signed: the query string is not rebuilt.
  expect(api.requests[0]!.url.search).toBe(`?expires=1893456000&signature=${SIGNATURE}`);
});

it('follows the redirect to a pre-signed storage URL, without the token there either', async () => {
  const bucket = await storage();
  const api = await service({ storage: bucket.url });
  const client = createFormsClient({ baseUrl: api.url, token: TOKEN });
  const response = await client.submissions.downloadFile({
    form: 42,
    filename: FILENAME,
    expires: 1893456000,
    signature: SIGNATURE,
  });
  expect(response.redirected).toBe(true);
  expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
  expect(bucket.requests).toHaveLength(1);
  expect(bucket.requests[0]!.headers.authorization).toBeUndefined();
  expect(api.requests[0]!.headers.authorization).toBeUndefined();
});

it('streams a file larger than maxResponseBytes and slower than timeoutMs: both bound the call, not your reading', async () => {
  const big = Buffer.alloc(3 * 1024 * 1024, 1);
  const api = await service({ file: big, slowMs: 400 });
  const client = createFormsClient({ baseUrl: api.url, token: TOKEN, timeoutMs: 150, maxResponseBytes: 1024 * 1024 });
  const response = await client.submissions.downloadFile(fileUrl(api.url));
  expect((await response.arrayBuffer()).byteLength).toBe(big.length);
  // Unless the call asks for a cap of its own.
  const capped = await client.submissions
    .downloadFile(fileUrl(api.url), { maxResponseBytes: 1024 * 1024 })
    .catch((e: unknown) => e);
  expect(capped).toMatchObject({ kind: 'response_too_large' });
});

it('your signal stops a download after the Response is returned', async () => {
  const api = await service({ file: Buffer.alloc(1024 * 1024, 1), slowMs: 2_000 });
  const client = createFormsClient({ baseUrl: api.url, token: TOKEN });
  const controller = new AbortController();
  const response = await client.submissions.downloadFile(fileUrl(api.url), { signal: controller.signal });
  const reading = response.arrayBuffer();
  controller.abort();
  await expect(reading).rejects.toThrow();
});

it('an expired or altered signature is missing_ability, a missing file not_found; the signature stays out of errors', async () => {
  const api = await service();
  const client = createFormsClient({ baseUrl: api.url, token: TOKEN });
  const forged = await client.submissions
    .downloadFile({ form: 'my-form', filename: FILENAME, expires: '1893456000', signature: 'cd'.repeat(32) })
    .catch((e: unknown) => e);
  expect(forged).toBeInstanceOf(FormsApiError);
  expect(forged).toMatchObject({
    kind: 'missing_ability',
    status: 403,
    operation: { operationId: 'downloadSubmissionFile' },
  });
  expect((forged as Error).message).toMatch(/signed URL has expired or was altered/);
  for (const dump of dumps(forged)) expect(dump).not.toContain('cd'.repeat(32));
  const missing = await client.submissions
    .downloadFile(fileUrl(api.url).replace(FILENAME, 'bm9uZQ'))
    .catch((e: unknown) => e);
  expect(missing).toMatchObject({ kind: 'not_found', status: 404, body: { message: 'File not found.' } });
  expect((missing as Error).message).toContain('file bm9uZQ of form 42 does not exist');
});

it('works the same through openapi-fetch when middleware is registered, and middleware sees it', async () => {
  const api = await service();
  const client = createFormsClient({ baseUrl: api.url, token: TOKEN });
  const seen: string[] = [];
  client.use({ onRequest: ({ request }) => void seen.push(request.url) });
  const response = await client.submissions.downloadFile(fileUrl(api.url, 'slug-1'));
  expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
  expect(seen).toEqual([fileUrl(api.url, 'slug-1')]);
  expect(api.requests[0]!.headers.authorization).toBeUndefined();
});

it('refuses a URL of another host, another path or without its signature, before sending anything, without echoing it', async () => {
  const api = await service();
  const client = createFormsClient({ baseUrl: api.url, token: TOKEN });
  const cases: Array<[unknown, string, RegExp]> = [
    [fileUrl('http://169.254.169.254'), 'file', /not on the client's `baseUrl`/],
    [`${api.url}/open/forms/42/submissions?signature=${SIGNATURE}`, 'file', /not a submission file URL/],
    [fileUrl(api.url).replace(/&signature=.*/, ''), 'file', /no `expires` and `signature`/],
    ['not a url', 'file', /not an absolute URL/],
    [{ form: 42, filename: 'a/b', expires: 1, signature: SIGNATURE }, 'file.filename', /base64url/],
    [{ form: 42, filename: FILENAME, expires: -1, signature: SIGNATURE }, 'file.expires', /Unix time/],
    [{ form: 42, filename: FILENAME, expires: 1, signature: 'XYZ' }, 'file.signature', /64 lowercase hex/],
  ];
  for (const [file, option, message] of cases) {
    const err = await client.submissions.downloadFile(file as string).catch((e: unknown) => e);
    expect(err, String(option)).toMatchObject({ kind: 'invalid_option', option });
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain(SIGNATURE);
  }
  expect(api.requests).toHaveLength(0);
});
