// Turns where Redis is into ioredis clients tuned for their role: a receiver must answer within the
// service's 5 s, so it fails fast; a worker waits out an outage; a one-shot command (the CLI) gives
// up at once instead of retrying forever.
import { Redis, type RedisOptions } from 'ioredis';
import { InboxError } from './errors.js';

/** The ioredis options this package passes through (any other ioredis option is accepted too). */
export interface InboxRedisOptions {
  host?: string;
  port?: number;
  username?: string;
  password?: string;
  db?: number;
  /** TLS options (Node's `tls.connect` options); `{}` for TLS with the defaults. */
  tls?: object;
  connectTimeout?: number;
  [ioredisOption: string]: unknown;
}

/** A `redis://` or `rediss://` URL, or ioredis options. */
export type InboxConnection = string | InboxRedisOptions;

export type ConnectionRole = 'receiver' | 'worker' | 'oneshot';

const ROLE_OPTIONS: Record<ConnectionRole, RedisOptions> = {
  // Commands fail at once while disconnected (no offline queue) and are retried once at most, so a
  // request never waits on a reconnect; reconnecting itself is quick, so the outage ends quickly too.
  receiver: { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000, retryStrategy: (attempt) => Math.min(attempt * 100, 1_000) },
  // BullMQ requires maxRetriesPerRequest null for workers: their commands wait for Redis to return.
  worker: { maxRetriesPerRequest: null, retryStrategy: (attempt) => Math.min(attempt * 100, 1_000) },
  // The CLI connects once: if Redis is not there, say so and exit rather than retry.
  oneshot: { maxRetriesPerRequest: 0, connectTimeout: 3_000, retryStrategy: () => null },
};

export function createRedisClient(connection: InboxConnection, role: ConnectionRole): Redis {
  const roleOptions = ROLE_OPTIONS[role];
  if (typeof connection === 'string') {
    if (!/^rediss?:\/\//.test(connection)) {
      throw new InboxError('invalid_options', `The Redis connection must be a redis:// or rediss:// URL, or ioredis options (got a string starting with ${JSON.stringify(connection.slice(0, 8))}).`);
    }
    return new Redis(connection, roleOptions);
  }
  if (connection === null || typeof connection !== 'object' || Array.isArray(connection)) {
    throw new InboxError('invalid_options', 'Pass `connection`: a redis:// URL such as process.env.REDIS_URL, or ioredis options such as { host, port }.');
  }
  if ('keyPrefix' in connection) {
    throw new InboxError('invalid_options', 'The ioredis `keyPrefix` option breaks BullMQ\'s keys; use the inbox `queue` option to separate inboxes instead.');
  }
  return new Redis({ ...(connection as RedisOptions), ...roleOptions });
}

/** Where the client points, for messages: host and port only, never the password. */
export function describeTarget(client: Redis): string {
  const { host, port, path } = client.options;
  return path ? `unix:${path}` : `${host ?? '127.0.0.1'}:${port ?? 6379}`;
}

const everReady = new WeakSet<Redis>();

/**
 * Resolves when the client can take a command now. A client that has never been ready (a process
 * that just started: a cold serverless function, a receiver's first request) is given up to
 * `timeoutMs` to connect, so its first delivery is not refused; one that was ready and lost Redis
 * fails at once, so a request never waits on an outage.
 */
export async function connected(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') {
    everReady.add(client);
    return true;
  }
  if (everReady.has(client) || client.status === 'end' || client.status === 'close') return false;
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('end', onEnd);
      resolve(ok);
    };
    const onReady = () => {
      everReady.add(client);
      done(true);
    };
    const onEnd = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    client.once('ready', onReady);
    client.once('end', onEnd);
  });
}

/** Resolves once the client is ready, or rejects with `redis_unavailable` after `timeoutMs`. */
export async function pingWithin(client: Redis, timeoutMs: number): Promise<number> {
  const started = performance.now();
  if (!(await connected(client, timeoutMs))) {
    throw new InboxError('redis_unavailable', `Redis at ${describeTarget(client)} is not connected (${client.status}). Check that it runs and is reachable from this process.`, {
      context: { target: describeTarget(client), status: client.status },
    });
  }
  await withTimeout(client.ping(), timeoutMs, () =>
    new InboxError('redis_unavailable', `Redis at ${describeTarget(client)} did not answer PING within ${timeoutMs} ms.`, { context: { target: describeTarget(client), timeoutMs } }),
  );
  return performance.now() - started;
}

/** Rejects with `onTimeout()` if `promise` has not settled within `ms`; the timer never outlives it. */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
