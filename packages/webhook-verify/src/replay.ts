// Replay guard. The scheme signs no timestamp, so a captured request stays valid forever; the
// best a receiver can do is refuse a delivery whose signature it has already claimed recently.
import { integerOption } from '@forms-api/internal/option-names';
import { WebhookVerifyError } from './core/errors.js';

/**
 * Where deliveries are claimed, keyed by their `X-Webhook-Signature` value. `claim` must be
 * atomic (exactly one of two concurrent callers wins), so one delivery arriving twice at once is
 * processed once; over Redis that is `SET key 1 NX PX ttlMs`. Implement it over Redis or a
 * database to share the guard between processes (`@forms-api/webhook-inbox` ships one for Redis).
 */
export interface ReplayStore {
  /** Claims `key` for `ttlMs`: true when this caller now holds it, false when it is already claimed and still fresh. */
  claim(key: string, ttlMs: number): boolean | Promise<boolean>;
  /** Gives a claim back because the delivery was not processed, so its next arrival is. */
  release(key: string): void | Promise<void>;
}

export interface MemoryReplayStoreOptions {
  /** Most claims kept; the least recently touched is dropped first. Default 10,000. */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** An in-memory LRU of claims with a time to live, for a single process. */
export class MemoryReplayStore implements ReplayStore {
  readonly #entries = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryReplayStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#now = options.now ?? Date.now;
    integerOption(WebhookVerifyError, this.#maxEntries, 'maxEntries', {
      hint: 'MemoryReplayStore keeps at most that many claims.',
    });
  }

  claim(key: string, ttlMs: number): boolean {
    const now = this.#now();
    const expiresAt = this.#entries.get(key);
    // Deleting then setting moves the key to the most recent end of the Map (the LRU order).
    this.#entries.delete(key);
    const fresh = expiresAt !== undefined && expiresAt > now;
    this.#entries.set(key, fresh ? expiresAt : now + ttlMs);
    while (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
    return !fresh;
  }

  release(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
