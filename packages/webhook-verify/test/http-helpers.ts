// Test helpers: start servers on 127.0.0.1 with a port chosen at run time, and send raw requests.
import { createServer, request, type RequestListener } from 'node:http';
import { readFileSync } from 'node:fs';
import { listen } from '@forms-api/test-support';

export { listen };

const vectors = JSON.parse(readFileSync(new URL('./vectors.json', import.meta.url), 'utf8'));
export const SECRET: string = vectors.defaultSecret;
export const BODY: string = vectors.valid[0].body.utf8;
export const SIGNATURE: string = vectors.valid[0].signature;

export const listenOn = (listener: RequestListener) => listen(createServer(listener));

export async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}

/** The rejection policy every adapter must follow, as request → expected status. */
export const POLICY_CASES: Array<[string, { body: string; headers: Record<string, string> }, number, string]> = [
  ['a valid request', { body: BODY, headers: { 'x-webhook-signature': SIGNATURE } }, 200, 'accepted'],
  ['a missing signature', { body: BODY, headers: {} }, 401, 'missing_signature'],
  [
    'a malformed signature',
    { body: BODY, headers: { 'x-webhook-signature': SIGNATURE.toUpperCase() } },
    401,
    'malformed_signature',
  ],
  [
    'a signature of another body',
    { body: `${BODY} `, headers: { 'x-webhook-signature': SIGNATURE } },
    401,
    'signature_mismatch',
  ],
  [
    'a wrong content type',
    { body: BODY, headers: { 'content-type': 'text/plain', 'x-webhook-signature': SIGNATURE } },
    415,
    'unsupported_content_type',
  ],
];

/** POSTs `count` chunks of `size` bytes with chunked transfer encoding (no Content-Length), stopping once answered. */
export function postChunked(
  url: string,
  count: number,
  size: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: () => any; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers } },
      (res) => {
        answered = true;
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (d) => (text += d))
          .on('end', () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(text), sent });
          });
      },
    );
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(size, 0x20);
    const pump = () => {
      while (!answered && sent < count) {
        sent++;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}
