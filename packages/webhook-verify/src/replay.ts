// Replay guard. The scheme signs no timestamp, so a captured request stays valid forever; the
// best a receiver can do is refuse a signature it has already accepted recently.

/** Remembers accepted signatures. Implement it over Redis or a database to share it across processes. */
export interface ReplayStore {
  /** Records `key` for `ttlMs`; resolves to true when it was already recorded and still fresh. */
  seen(key: string, ttlMs: number): boolean | Promise<boolean>;
}

export interface MemoryReplayStoreOptions {
  /** Most signatures kept; the least recently seen is dropped first. Default 10,000. */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** An in-memory LRU of signatures with a time to live, for a single process. */
export class MemoryReplayStore implements ReplayStore {
  readonly #entries = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryReplayStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#now = options.now ?? Date.now;
    if (!Number.isInteger(this.#maxEntries) || this.#maxEntries < 1) throw new RangeError('MemoryReplayStore: maxEntries must be a positive integer.');
  }

  seen(key: string, ttlMs: number): boolean {
    const now = this.#now();
    const expiresAt = this.#entries.get(key);
    this.#entries.delete(key);
    const fresh = expiresAt !== undefined && expiresAt > now;
    this.#entries.set(key, fresh ? expiresAt : now + ttlMs);
    while (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
    return fresh;
  }

  get size(): number {
    return this.#entries.size;
  }
}
