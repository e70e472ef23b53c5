// Types of reconcile-chaos.mjs.
export interface ReconcileChaosOptions {
  /** Answers submitted (default 500). */
  answers?: number;
  /** Worker processes alive at a time (default 2). */
  workers?: number;
  /** Answers in flight (default 8). */
  lanes?: number;
  log?: (line: string) => void;
}

export interface ReconcileChaosFigures {
  answers: number;
  /** Answers per segment: receiver up, down, up while a worker is killed, Redis crashed, up again. */
  segments: [up: number, receiverDown: number, workerKilled: number, redisAway: number, upAgain: number];
  /** The submission keys (`form:id`) the sandbox lists for the answers made. */
  made: string[];
  /** The submission of each row of the handler's record (runs deduplicated by submission key). */
  recorded: string[];
  handlerRuns: number;
  /** Submissions that ran as the first from more than one job (must be none). */
  claimedTwice: string[];
  /** Reconciled runs that were not their submission's first (must be none: the worker skips them). */
  reconciledNotFirst: number;
  /** Submissions whose first job was a webhook's. */
  byWebhook: number;
  /** Submissions whose first job was the reconciler's. */
  recovered: number;
  /** The sandbox's events with status Error. */
  failedWebhooks: number;
  /** Submissions no webhook job ran for (their webhook never reached Redis). */
  lost: number;
  /** Submissions whose webhook arrived after the reconciler had taken them. */
  lateWebhooks: number;
  duplicatesDropped: { record: number; lateWebhook: number; rerun: number };
  receiver: {
    arrived: number;
    answered: number;
    stored: number;
    down: number;
    refused: number;
    held: number;
    /** Webhooks that never reached the receiver. */
    unreachable: number;
  };
  reconciler: {
    queued: number;
    requests: number;
    budget: { requests: number; windowMs: number };
    perPage: number;
  };
  rateLimit: { limit: number; windowMs: number };
  deadLetters: number;
  killed: { pid: number; signal: number | string; midJob: boolean; at: number; runsBefore: number; runsAfter: number };
  largestLag: { ms: number; origin: 'webhook' | 'reconcile' | null; key: string | null };
  durationMs: number;
}

export function runReconcileChaos(options?: ReconcileChaosOptions): Promise<ReconcileChaosFigures>;
export function formatReconcileChaos(figures: ReconcileChaosFigures): string[];
