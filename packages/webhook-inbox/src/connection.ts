// Turns where Redis is into ioredis clients tuned for their role: a receiver must answer within the
// service's 5 s, so it fails fast; a worker waits out an outage; a one-shot command (the CLI) gives
// up at once instead of retrying forever. A single node (or Sentinel, through ioredis' options) gets
// a `Redis`, a Redis Cluster a `Cluster` whose node connections are tuned the same way.
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { InboxError, isInboxError } from './errors.js';

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

/** A Redis Cluster: some or all of its nodes, and the options of every node connection. */
export interface InboxClusterConnection {
  /** Nodes to discover the cluster from: `redis://host:port` URLs or `{ host, port }`. */
  cluster: readonly (string | { host: string; port: number })[];
  /** ioredis options of each node connection (`password`, `username`, `tls`). */
  redisOptions?: InboxRedisOptions;
  /** Any other ioredis `Cluster` option (`natMap`, `dnsLookup`, …). */
  [ioredisClusterOption: string]: unknown;
}

/** A `redis://` or `rediss://` URL, ioredis options (Sentinel included), or a Redis Cluster. */
export type InboxConnection = string | InboxRedisOptions | InboxClusterConnection;

/** A connection to a single node (or through Sentinel) or to a Redis Cluster. */
export type RedisClient = Redis | Cluster;

export type ConnectionRole = 'receiver' | 'worker' | 'oneshot';

/**
 * After a failover the old primary is a replica that answers every write `READONLY`, while the
 * connection stays up; reconnecting (the command still fails, no resend) lets DNS, a proxy or
 * Sentinel lead the next connection to the new primary instead of failing writes forever. The
 * client is marked as facing a replica whichever command met it (BullMQ's own included), so the
 * health check run during the reconnect names the replica rather than "not connected".
 */
function reconnectOnReadOnly(owner: { client?: RedisClient }) {
  return (error: Error): 1 | false => {
    if (!isReadOnlyError(error)) return false;
    if (owner.client) refusedReadOnly.add(owner.client);
    return 1;
  };
}

const ROLE_OPTIONS: Record<ConnectionRole, RedisOptions> = {
  // Commands fail at once while disconnected (no offline queue) and are retried once at most, so a
  // request never waits on a reconnect; reconnecting itself is quick, so the outage ends quickly too.
  receiver: {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  },
  // BullMQ requires maxRetriesPerRequest null for workers: their commands wait for Redis to return.
  worker: {
    maxRetriesPerRequest: null,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  },
  // The CLI connects once: if Redis is not there, say so and exit rather than retry.
  oneshot: { maxRetriesPerRequest: 0, connectTimeout: 3_000, retryStrategy: () => null },
};

// On a cluster a command to a master that went away is retried on the slot's new owner (ioredis
// refreshes the slot map after each wait); the receiver's deadline still bounds the whole.
const CLUSTER_OPTIONS: Record<ConnectionRole, ClusterOptions> = {
  receiver: {
    enableOfflineQueue: false,
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    clusterRetryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  },
  worker: {
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    clusterRetryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  },
  oneshot: { clusterRetryStrategy: () => null },
};

const targets = new WeakMap<RedisClient, string>();

export function createRedisClient(connection: string, role: ConnectionRole): Redis;
export function createRedisClient(connection: InboxConnection, role: ConnectionRole): RedisClient;
export function createRedisClient(connection: InboxConnection, role: ConnectionRole): RedisClient {
  const owner: { client?: RedisClient } = {};
  owner.client = createClient(connection, role, owner);
  return owner.client;
}

function createClient(connection: InboxConnection, role: ConnectionRole, owner: { client?: RedisClient }): RedisClient {
  const roleOptions: RedisOptions = {
    ...ROLE_OPTIONS[role],
    ...(role === 'oneshot' ? {} : { reconnectOnError: reconnectOnReadOnly(owner) }),
  };
  if (typeof connection === 'string') {
    if (!/^rediss?:\/\//.test(connection)) {
      throw new InboxError(
        'invalid_option',
        `The Redis connection must be a redis:// or rediss:// URL, or ioredis options (got a string starting with ${JSON.stringify(connection.slice(0, 8))}).`,
      );
    }
    return new Redis(connection, roleOptions);
  }
  if (connection === null || typeof connection !== 'object' || Array.isArray(connection)) {
    throw new InboxError(
      'invalid_option',
      'Pass `connection`: a redis:// URL such as process.env.REDIS_URL, or ioredis options such as { host, port }.',
    );
  }
  if ('keyPrefix' in connection || 'keyPrefix' in ((connection.redisOptions as object | undefined) ?? {})) {
    throw new InboxError(
      'invalid_option',
      "The ioredis `keyPrefix` option breaks BullMQ's keys; use the inbox `queue` option to separate inboxes instead.",
    );
  }
  if ('cluster' in connection) return createClusterClient(connection as InboxClusterConnection, role, roleOptions);
  // Behind Sentinel, a primary that hangs (a frozen VM, a partition) keeps its connections open
  // and answers nothing: ioredis' failover detector listens for the sentinels' +switch-master and
  // reconnects to the promoted replica, instead of waiting on the old primary for ever.
  const sentinel = Array.isArray(connection.sentinels) && connection.sentinels.length > 0;
  return new Redis({
    ...(sentinel ? { failoverDetector: true } : {}),
    ...(connection as RedisOptions),
    ...roleOptions,
  });
}

function createClusterClient(
  connection: InboxClusterConnection,
  role: ConnectionRole,
  roleOptions: RedisOptions,
): Cluster {
  const { cluster: nodes, redisOptions, ...clusterOptions } = connection;
  if (!Array.isArray(nodes) || nodes.length === 0) {
    throw new InboxError(
      'invalid_option',
      '`connection.cluster` must list at least one node of the Redis Cluster: `redis://host:port` URLs or `{ host, port }`.',
    );
  }
  const seeds = nodes.map((node: string | { host: string; port: number }) => {
    if (typeof node !== 'string') return node;
    if (!/^rediss?:\/\//.test(node)) {
      throw new InboxError(
        'invalid_option',
        `Each node of \`connection.cluster\` must be a redis:// URL or { host, port } (got a string starting with ${JSON.stringify(node.slice(0, 8))}).`,
      );
    }
    const url = new URL(node);
    return { host: url.hostname, port: Number(url.port || 6379) };
  });
  const client = new Cluster(seeds, {
    ...(clusterOptions as ClusterOptions),
    ...CLUSTER_OPTIONS[role],
    redisOptions: { ...(redisOptions as RedisOptions | undefined), ...roleOptions },
  });
  targets.set(client, `cluster ${seeds.map((seed) => `${seed.host}:${seed.port}`).join(',')}`);
  return client;
}

/** True for a Redis Cluster client. */
export function isCluster(client: RedisClient): client is Cluster {
  return (client as Cluster).isCluster === true;
}

/**
 * Drops the connection and opens a new one (behind Sentinel, asking the sentinels again where the
 * primary is; on a cluster, fetching the slot map again), at most once per `minIntervalMs`: after
 * a command timed out on a connection that stays open, the server behind it may be hung.
 */
export function reconnector(client: RedisClient, minIntervalMs: number): () => void {
  let last = -Infinity;
  return () => {
    const now = performance.now();
    if (now - last < minIntervalMs || client.status !== 'ready') return;
    last = now;
    client.disconnect(true);
  };
}

/** Where the client points, for messages: hosts and ports only, never the password. */
export function describeTarget(client: RedisClient): string {
  const known = targets.get(client);
  if (known) return known;
  if (isCluster(client)) return 'cluster';
  const { host, port, path, sentinels, name } = (client as Redis).options;
  if (sentinels?.length) return `sentinel master ${name ?? 'mymaster'}`;
  return path ? `unix:${path}` : `${host ?? '127.0.0.1'}:${port ?? 6379}`;
}

/**
 * One line on what went wrong with Redis, for the once-per-outage log: a command the server refused
 * (CROSSSLOT, READONLY, OOM) is named as such, not as an unreachable Redis, and CROSSSLOT says how
 * to fix it. Names hosts and ports, never a password.
 */
export function describeRedisError(client: RedisClient, error: Error): string {
  const target = describeTarget(client);
  if (isInboxError(error) && error.kind === 'enqueue_timeout')
    return `Redis at ${target} did not confirm a delivery within ${String(error.context.timeoutMs)} ms (a hung or cut-off primary?)`;
  const root = isInboxError(error) && error.cause instanceof Error ? error.cause : error;
  const message = root.message.split('\n')[0] ?? '';
  if (message.startsWith('CROSSSLOT'))
    return `Redis Cluster at ${target} refused a command whose keys are in different hash slots (${message}): every key of a queue must share one hash tag, as the inbox's keys under inboxQueuePrefix() do; does another producer write to this queue without that prefix?`;
  if (message.startsWith('READONLY'))
    return `Redis at ${target} is a read-only replica, as after a failover (${message})`;
  if (root.name === 'ReplyError') return `Redis at ${target} refused a command (${message})`;
  return `Redis at ${target} is unreachable (${message})`;
}

const everReady = new WeakSet<RedisClient>();

/**
 * Resolves when the client can take a command now. A client that has never been ready (a process
 * that just started: a cold serverless function, a receiver's first request) is given up to
 * `timeoutMs` to connect, so its first delivery is not refused; one that was ready and lost Redis,
 * or whose connection attempt already failed (ioredis is `reconnecting`: a wrong or absent Redis),
 * fails at once, so a request never waits on a Redis known to be down.
 */
export async function connected(client: RedisClient, timeoutMs: number): Promise<boolean> {
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
export async function writableWithin(client: RedisClient, probeKey: string, timeoutMs: number): Promise<number> {
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
    if (isInboxError(error)) throw error;
    throw writeRefused(client, error);
  }
  wroteTo(client);
  return performance.now() - started;
}

// Clients whose last write was refused READONLY: while they reconnect, and for as long as the
// server behind the address is still a replica, they say so rather than a vague "not connected".
const refusedReadOnly = new WeakSet<RedisClient>();

/** Records a write Redis accepted: the client is no longer known to be facing a replica. */
export function wroteTo(client: RedisClient): void {
  refusedReadOnly.delete(client);
}

/** The error for a client that is not connected now (messages name no address: they may be public). */
export function notConnected(client: RedisClient, context: Record<string, string | number> = {}): InboxError {
  if (refusedReadOnly.has(client)) return readOnly(client, undefined, context);
  return new InboxError(
    'redis_unavailable',
    `Redis is not connected (${client.status}). Check that it runs and is reachable from this process.`,
    {
      context: { target: describeTarget(client), status: client.status, ...context },
    },
  );
}

function readOnly(client: RedisClient, cause: unknown, context: Record<string, string | number>): InboxError {
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
export function writeRefused(
  client: RedisClient,
  error: unknown,
  context: Record<string, string | number> = {},
): InboxError {
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
