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

/**
 * After a failover the old primary is a replica that answers every write `READONLY`, while the
 * connection stays up; reconnecting (the command still fails, no resend) lets DNS, a proxy or
 * Sentinel lead the next connection to the new primary instead of failing writes forever.
 */
const reconnectOnReadOnly = (error: Error): 1 | false => (error.message.startsWith('READONLY') ? 1 : false);

const ROLE_OPTIONS: Record<ConnectionRole, RedisOptions> = {
  // Commands fail at once while disconnected (no offline queue) and are retried once at most, so a
  // request never waits on a reconnect; reconnecting itself is quick, so the outage ends quickly too.
  receiver: {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    reconnectOnError: reconnectOnReadOnly,
  },
  // BullMQ requires maxRetriesPerRequest null for workers: their commands wait for Redis to return.
  worker: {
    maxRetriesPerRequest: null,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    reconnectOnError: reconnectOnReadOnly,
  },
  // The CLI connects once: if Redis is not there, say so and exit rather than retry.
  oneshot: { maxRetriesPerRequest: 0, connectTimeout: 3_000, retryStrategy: () => null },
};

export function createRedisClient(connection: InboxConnection, role: ConnectionRole): Redis {
  const roleOptions = ROLE_OPTIONS[role];
  if (typeof connection === 'string') {
    if (!/^rediss?:\/\//.test(connection)) {
      throw new InboxError(
        'invalid_options',
        `The Redis connection must be a redis:// or rediss:// URL, or ioredis options (got a string starting with ${JSON.stringify(connection.slice(0, 8))}).`,
      );
    }
    return new Redis(connection, roleOptions);
  }
  if (connection === null || typeof connection !== 'object' || Array.isArray(connection)) {
    throw new InboxError(
      'invalid_options',
      'Pass `connection`: a redis:// URL such as process.env.REDIS_URL, or ioredis options such as { host, port }.',
    );
  }
  if ('keyPrefix' in connection) {
    throw new InboxError(
      'invalid_options',
      "The ioredis `keyPrefix` option breaks BullMQ's keys; use the inbox `queue` option to separate inboxes instead.",
    );
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
 * `timeoutMs` to connect, so its first delivery is not refused; one that was ready and lost Redis,
 * or whose connection attempt already failed (ioredis is `reconnecting`: a wrong or absent Redis),
 * fails at once, so a request never waits on a Redis known to be down.
 */
export async function connected(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') {
    everReady.add(client);
    return true;
  }
  if (everReady.has(client) || ['end', 'close', 'reconnecting'].includes(client.status)) return false;
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('end', onEnd);
      client.off('reconnecting', onEnd);
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
    client.once('reconnecting', onEnd);
  });
}

/** True for the error a read-only replica answers to a write (`READONLY You can't write against…`). */
export function isReadOnlyError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('READONLY');
}

/**
 * Resolves with the round trip of a small write (`SET probeKey … PX 60000`), or rejects with an
 * `InboxError` after `timeoutMs`. A write, not a PING: a replica left behind by a failover, a Redis
 * out of memory or short of replicas answers PING but refuses every delivery, and a health check
 * must fail exactly when deliveries would. Messages name no address: health answers may be public.
 */
export async function writableWithin(client: Redis, probeKey: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  if (!(await connected(client, timeoutMs))) throw notConnected(client);
  try {
    await withTimeout(
      client.set(probeKey, String(Date.now()), 'PX', 60_000),
      timeoutMs,
      () =>
        new InboxError('redis_unavailable', `Redis did not confirm a write within ${timeoutMs} ms.`, {
          context: { target: describeTarget(client), timeoutMs },
        }),
    );
  } catch (error) {
    if (error instanceof InboxError) throw error;
    throw writeRefused(client, error);
  }
  wroteTo(client);
  return performance.now() - started;
}

// Clients whose last write was refused READONLY: while they reconnect, and for as long as the
// server behind the address is still a replica, they say so rather than a vague "not connected".
const refusedReadOnly = new WeakSet<Redis>();

/** Records a write Redis accepted: the client is no longer known to be facing a replica. */
export function wroteTo(client: Redis): void {
  refusedReadOnly.delete(client);
}

/** The error for a client that is not connected now (messages name no address: they may be public). */
export function notConnected(client: Redis, context: Record<string, string | number> = {}): InboxError {
  if (refusedReadOnly.has(client)) return readOnly(client, undefined, context);
  return new InboxError(
    'redis_unavailable',
    `Redis is not connected (${client.status}). Check that it runs and is reachable from this process.`,
    {
      context: { target: describeTarget(client), status: client.status, ...context },
    },
  );
}

function readOnly(client: Redis, cause: unknown, context: Record<string, string | number>): InboxError {
  return new InboxError(
    'redis_read_only',
    'Redis is a read-only replica (READONLY), as after a failover: point the connection at the primary (the inbox reconnects by itself on READONLY, so a DNS name, proxy or Sentinel that moved to the new primary is followed).',
    {
      context: { target: describeTarget(client), ...context },
      cause,
    },
  );
}

/** The error for a write Redis answered with an error: read-only replica, out of memory, … */
export function writeRefused(client: Redis, error: unknown, context: Record<string, string | number> = {}): InboxError {
  const message = error instanceof Error ? error.message : String(error);
  if (isReadOnlyError(error)) refusedReadOnly.add(client);
  // A command caught by the reconnect that READONLY starts fails as "Connection is closed": the
  // client still faces a replica until a write succeeds (`wroteTo`).
  if (refusedReadOnly.has(client)) return readOnly(client, error, context);
  return new InboxError('redis_unavailable', `Redis refused the write (${message.split('\n')[0]}).`, {
    context: { target: describeTarget(client), ...context },
    cause: error,
  });
}

/** Rejects with `onTimeout()` if `promise` has not settled within `ms`; the timer never outlives it. */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
