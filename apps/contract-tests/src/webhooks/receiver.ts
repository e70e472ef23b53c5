// A webhook receiver for the round trip: node:http on 127.0.0.1, keeps the raw bytes of each
// request (signatures are computed over them, up to a size limit) and lets a check wait for the next one.
// One receiver serves a target's whole run (a tunnel forwards to one port); each webhook a check
// sets up gets a path of its own and sees only what arrives there.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeStreamSource, readPrefix } from '@forms-api/internal/bounded-body';
import { ContractTestsError } from '../errors.js';
import { MAX_RESPONSE_BYTES } from '../targets/limits.js';

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

/** A receiver whose deliveries to one path can be watched on their own. */
export interface SharedReceiver extends WebhookReceiver {
  /** The deliveries whose path ends with `path` (query aside), as a receiver of their own. */
  at(path: string): WebhookReceiver;
}

export async function startReceiver(port = 0, maxBodyBytes = MAX_RESPONSE_BYTES): Promise<SharedReceiver> {
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
  const waitUntil = <T>(found: () => T | undefined, timeoutMs: number, signal?: AbortSignal): Promise<T | undefined> =>
    new Promise((resolve) => {
      const done = (value: T | undefined) => {
        clearTimeout(timer);
        waiters.delete(check);
        // The signal outlives the wait (it is the whole run's): leave no listener on it.
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const check = () => {
        const value = found();
        if (value !== undefined) done(value);
      };
      const onAbort = () => done(undefined);
      const timer = setTimeout(() => done(undefined), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.add(check);
      check();
    });
  const receiver: SharedReceiver = {
    port: (server.address() as AddressInfo).port,
    received,
    waitFor: (since, timeoutMs, signal) => waitUntil(() => received[since], timeoutMs, signal),
    at(path) {
      const mine = () => received.filter((d) => d.path.split('?')[0]!.endsWith(path));
      return {
        port: receiver.port,
        get received() {
          return mine();
        },
        waitFor: (since, timeoutMs, signal) => waitUntil(() => mine()[since], timeoutMs, signal),
        // The receiver is the target's: it closes with the target.
        close: async () => {},
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/**
 * A target's receiver, started at the first `receiver()` (then the same one) and closed by
 * `close()`. `port` 0 picks a free one; a port asked for (`setting` names it) that another process
 * holds is a ContractTestsError of kind `port_in_use` naming the setting.
 */
export function targetReceiver(
  port: number,
  setting?: string,
): { receiver(): Promise<SharedReceiver>; close(): Promise<void> } {
  let started: Promise<SharedReceiver> | undefined;
  return {
    receiver() {
      started ??= startReceiver(port).catch((error: unknown) => {
        if ((error as { code?: unknown }).code === 'EADDRINUSE')
          throw new ContractTestsError(
            'port_in_use',
            `the webhook receiver cannot listen on 127.0.0.1:${port}${setting ? ` (${setting})` : ''}: another process holds the port. Stop it, or set ${setting ?? 'a port'} to a free port your tunnel forwards to.`,
            { context: { port, ...(setting ? { setting } : {}) } },
          );
        throw error;
      });
      return started;
    },
    async close() {
      const receiver = await started?.catch(() => undefined);
      await receiver?.close();
    },
  };
}
