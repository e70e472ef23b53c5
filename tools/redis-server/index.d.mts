// Types of index.mjs.
export interface RedisServerOptions {
  /** Append-only file persistence. Default off (nothing survives a restart). */
  appendonly?: boolean;
  /** `always` makes Redis fsync before it answers a write. Default `everysec`. */
  appendfsync?: 'always' | 'everysec';
  /** More `redis-server` arguments (`['--cluster-enabled', 'yes']`), after the defaults. */
  args?: readonly string[];
  /** A configuration file's text, written to the data directory and given first (Sentinel needs one). */
  config?: string;
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
  /** SIGSTOP: the process hangs (a frozen VM, a partition): connections stay open, nothing answers. */
  pause(): void;
  /** SIGCONT after `pause()`. */
  resume(): void;
  /** Stops it and removes its data directory. */
  close(): Promise<void>;
}

export interface RedisClusterOptions {
  /** Default 3. */
  masters?: number;
  /** Default 1. */
  replicasPerMaster?: number;
  /** `cluster-node-timeout`: how long a silent master has before its replica is promoted. Default 1,000 ms. */
  nodeTimeoutMs?: number;
}

export interface RedisCluster {
  /** Every node started, masters and replicas, in the order `redis-cli --cluster create` was given them. */
  readonly nodes: readonly RedisServer[];
  /** `{ host, port }` of every node, for ioredis' `Cluster`. */
  readonly seeds: readonly { host: string; port: number }[];
  /** Resolves when every running node says `cluster_state:ok`, every replica is in sync and every master is up. */
  waitUntilReady(): Promise<void>;
  /** The running masters, as a running node sees them. */
  masters(): Promise<RedisServer[]>;
  /** The running master that serves `key`'s slot. */
  masterFor(key: string): Promise<RedisServer>;
  /** After `killed` (a master) was stopped: resolves once the cluster flags it failed and is ready again. */
  waitForFailover(killed: RedisServer): Promise<void>;
  /** Kills every node and removes their data directories. */
  close(): Promise<void>;
}

export function startRedisCluster(options?: RedisClusterOptions): Promise<RedisCluster>;

/** A port nobody listens on now (on 127.0.0.1). */
export function freePort(): Promise<number>;
export function startRedisServer(options?: RedisServerOptions): Promise<RedisServer>;

export interface RedisSentinelOptions {
  /** Default `mymaster`. */
  masterName?: string;
  /** Replicas of the primary. Default 1. */
  replicas?: number;
  /** Sentinels (quorum 2). Default 3. */
  sentinels?: number;
  /** `down-after-milliseconds`: how long a silent primary has before the sentinels fail it over. Default 1,000 ms. */
  downAfterMs?: number;
}

export interface RedisSentinelSet {
  readonly masterName: string;
  /** The primary first, then its replicas, as started. */
  readonly servers: readonly RedisServer[];
  readonly sentinels: readonly RedisServer[];
  /** `{ host, port }` of every sentinel, for ioredis' `sentinels` option. */
  readonly seeds: readonly { host: string; port: number }[];
  /** The server the sentinels name as the primary now. */
  primary(): Promise<RedisServer>;
  /** Resolves when every sentinel knows the replicas and the other sentinels, and every replica is in sync. */
  waitUntilReady(): Promise<void>;
  /** After `old` (the primary) was stopped or paused: resolves with the replica every sentinel now names. */
  waitForPromotion(old: RedisServer): Promise<RedisServer>;
  /** Kills every server and sentinel and removes their data directories. */
  close(): Promise<void>;
}

export function startRedisSentinel(options?: RedisSentinelOptions): Promise<RedisSentinelSet>;
