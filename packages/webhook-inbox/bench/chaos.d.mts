// Types of chaos.mjs.
export interface ChaosOptions {
  /** Distinct deliveries to send (default 20,000). */
  deliveries?: number;
  /** Receiver processes (default 3). */
  receivers?: number;
  /** Worker processes alive at a time (default 3). */
  workers?: number;
  /** A worker is SIGKILLed (and replaced) this often (default 4,000 ms). */
  killEveryMs?: number;
  /** Requests in flight (default 32). */
  connections?: number;
  log?: (line: string) => void;
}

export interface ChaosRun {
  start: number;
  end: number | undefined;
  pid: number;
}

export interface ChaosFigures {
  deliveries: number;
  accepted: number;
  resent: { answered503: number; failedConnections: number };
  requests: number;
  receivers: number;
  workers: number;
  workerKills: number;
  redisRestarts: number;
  redisDownMs: number;
  durationMs: number;
  handlerRuns: number;
  lost: number;
  duplicates: {
    total: number;
    workerKilled: number;
    redisRestart: number;
    unexplained: number;
    unexplainedIds: unknown[];
  };
  /** Dead letters other than jobs stalled twice (must be 0). */
  deadLetters: number;
  /** Jobs whose worker was killed twice while holding them, sent back with `inbox retry --all`. */
  stalledTwiceRetried: number;
  failedAttempts: number;
  failureSamples: string[];
  lostIds: string[];
  strays: number;
}

export function runChaos(options?: ChaosOptions): Promise<ChaosFigures>;
export function formatChaos(figures: ChaosFigures): string[];

/** Forks `file` with `env` into `children`; `ready` resolves with its first `{ type: 'ready' }` message. */
export function startProcess(
  file: string,
  env: Record<string, string>,
  children: Set<import('node:child_process').ChildProcess>,
): { child: import('node:child_process').ChildProcess; ready: Promise<unknown>; exited: Promise<number | string> };
/** Starts a stopped Redis again on its port (up to five tries). */
export function startAgain(
  redis: import('@forms-api/redis-server').RedisServer,
  log?: (line: string) => void,
): Promise<void>;
