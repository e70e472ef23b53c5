// A webhook receiver for the round trip: node:http on 127.0.0.1, keeps the raw bytes of each
// request (signatures are computed over them, up to a size limit) and lets a check wait for the next one.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_RESPONSE_BYTES } from '../targets/http-client.js';

export interface ReceivedWebhook {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body, or its first `bodyLimit` bytes when it was longer. */
  readonly rawBody: Buffer;
  /** Set when the body was longer than the receiver keeps (the request was refused with 413). */
  readonly bodyLimit?: number;
  readonly receivedAt: number;
}

export interface WebhookReceiver {
  readonly port: number;
  readonly received: readonly ReceivedWebhook[];
  /** Resolves with the first request after `since` (an index into `received`), or undefined on timeout. */
  waitFor(since: number, timeoutMs: number, signal?: AbortSignal): Promise<ReceivedWebhook | undefined>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0, maxBodyBytes = MAX_RESPONSE_BYTES): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const record = (delivery: ReceivedWebhook) => {
    received.push(delivery);
    for (const wake of waiters) wake();
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      if (size + chunk.byteLength > maxBodyBytes) {
        refused = true;
        chunks.push(chunk.subarray(0, maxBodyBytes - size));
        record({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          rawBody: Buffer.concat(chunks),
          bodyLimit: maxBodyBytes,
          receivedAt: Date.now(),
        });
        res
          .writeHead(413, { 'content-type': 'application/json', connection: 'close' })
          .end('{"message":"payload too large"}', () => req.destroy());
        return;
      }
      chunks.push(chunk);
      size += chunk.byteLength;
    });
    req.on('end', () => {
      if (refused) return;
      record({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    received,
    waitFor(since, timeoutMs, signal) {
      return new Promise((resolve) => {
        const done = (value: ReceivedWebhook | undefined) => {
          clearTimeout(timer);
          waiters.delete(check);
          // The signal outlives the wait (it is the whole run's): leave no listener on it.
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        };
        const check = () => {
          if (received.length > since) done(received[since]);
        };
        const onAbort = () => done(undefined);
        const timer = setTimeout(() => done(undefined), timeoutMs);
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
