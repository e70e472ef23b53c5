// A webhook receiver for the round trip: node:http on 127.0.0.1, keeps the raw bytes of each
// request (signatures are computed over them, up to a size limit) and lets a check wait for the next one.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeStreamSource, readPrefix } from '@forms-api/internal/bounded-body';
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
    void readPrefix(nodeStreamSource(req), maxBodyBytes).then((read) => {
      // A sender that broke off mid-body delivered nothing.
      if (!read.ok) return void req.destroy();
      const { bytes, exceeded } = read.value;
      record({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        ...(exceeded ? { bodyLimit: maxBodyBytes } : {}),
        receivedAt: Date.now(),
      });
      if (!exceeded) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      // The rest of the body is not read: the answer closes the connection, then the request goes.
      res
        .writeHead(413, { 'content-type': 'application/json', connection: 'close' })
        .end('{"message":"payload too large"}', () => req.destroy());
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
