// A replay guard shared by every receiver process: webhook-verify's ReplayStore over Redis, where
// claiming a signature is one atomic SET NX PX, so two instances given the same captured request
// cannot both accept it.
import { createHash } from 'node:crypto';
import { connected, createRedisClient, describeTarget, type InboxConnection, type RedisClient } from './connection.js';
import { InboxError } from './errors.js';
import { assertPositiveInteger } from './options.js';
import { outageReporter } from './inbox.js';
import type { ReplayStore } from './verification.js';

// A fresh store's first claim waits this long for its connection (the service's timeout is 5 s).
const CONNECT_TIMEOUT_MS = 2_000;

export interface RedisReplayStoreOptions {
  /** Where Redis is: a `redis://` URL or ioredis options. */
  connection: InboxConnection;
  /** Prefix of the keys. Default `forms-webhook:replay:`. */
  prefix?: string;
  /** Called once when Redis becomes unreachable. Default: one stderr line. */
  onRedisError?: (error: Error) => void;
}

/**
 * webhook-verify's `ReplayStore` over Redis: pass it as `replayStore` to its adapters or
 * `parseWebhook`. `claim(key, ttlMs)` resolves true for exactly one caller per key and time to live, in any number
 * of processes; `release(key)` gives the key back (when handling failed and a retry should pass).
 * While Redis is unreachable `claim` rejects (with `redis_unavailable`) rather than guessing.
 */
export class RedisReplayStore implements ReplayStore {
  readonly #client: RedisClient;
  readonly #prefix: string;

  constructor(options: RedisReplayStoreOptions) {
    this.#prefix = options.prefix ?? 'forms-webhook:replay:';
    this.#client = createRedisClient(options.connection, 'receiver');
    outageReporter(
      this.#client,
      options.onRedisError ??
        ((error) =>
          console.error(
            `[webhook-inbox] replay store: Redis at ${describeTarget(this.#client)} is unreachable (${error.message}).`,
          )),
    );
  }

  /** True when this caller now holds `key` for `ttlMs`; false when someone already does. */
  async claim(key: string, ttlMs: number): Promise<boolean> {
    assertPositiveInteger('replayTtlMs', ttlMs);
    try {
      if (!(await connected(this.#client, CONNECT_TIMEOUT_MS)))
        throw new Error(`not connected (${this.#client.status})`);
      return (await this.#client.set(this.#key(key), '1', 'PX', ttlMs, 'NX')) === 'OK';
    } catch (cause) {
      throw this.#unavailable(cause);
    }
  }

  async release(key: string): Promise<void> {
    try {
      if (!(await connected(this.#client, CONNECT_TIMEOUT_MS)))
        throw new Error(`not connected (${this.#client.status})`);
      await this.#client.del(this.#key(key));
    } catch (cause) {
      throw this.#unavailable(cause);
    }
  }

  async close(): Promise<void> {
    await this.#client.quit().catch(() => this.#client.disconnect());
  }

  // Keys hold a hash of the signature, not the signature: reading Redis gives nothing to replay.
  #key(key: string): string {
    return this.#prefix + createHash('sha256').update(key).digest('hex');
  }

  #unavailable(cause: unknown): InboxError {
    return new InboxError(
      'redis_unavailable',
      `The replay store could not reach Redis (${(cause as Error).message}); refuse the request (503) rather than risk accepting a replay.`,
      {
        context: { target: describeTarget(this.#client) },
        cause,
      },
    );
  }
}
