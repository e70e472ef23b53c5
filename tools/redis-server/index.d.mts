// Types of index.mjs.
export interface RedisServerOptions {
  /** Append-only file persistence. Default off (nothing survives a restart). */
  appendonly?: boolean;
  /** `always` makes Redis fsync before it answers a write. Default `everysec`. */
  appendfsync?: 'always' | 'everysec';
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  readonly running: boolean;
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>;
  /** SIGTERM: Redis shuts down cleanly (flushes the AOF). SIGKILL: a crash. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Stops it and removes its data directory. */
  close(): Promise<void>;
}

/** A port nobody listens on now (on 127.0.0.1). */
export function freePort(): Promise<number>;
export function startRedisServer(options?: RedisServerOptions): Promise<RedisServer>;
