// `stats`: jobs per state, how Redis persists them (AOF on or off, appendfsync) and what that
// means for an acknowledged delivery, and where the reconciler of each form stands.
import { describeTarget, type RedisClient } from '../connection.js';
import { reconciledForms, reconcileState } from '../reconciler.js';
import type { RunOptions, Session } from './session.js';

const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed', 'waiting-children'] as const;
const NOTES: Partial<Record<(typeof STATES)[number], string>> = {
  delayed: 'waiting for a retry',
  completed: 'kept for inspection',
  failed: 'dead letters: see `failed`',
};

export async function stats({ queue, client }: Session, { json, io, queue: name }: RunOptions): Promise<number> {
  const counts = await queue.getJobCounts(...STATES);
  const aof = /aof_enabled:1/.test(await client.info('persistence'));
  const appendfsync = aof ? await appendfsyncOf(client) : null;
  const reconcile = await Promise.all(
    (await reconciledForms(client, name)).map((form) => reconcileState(client, name, form)),
  );
  if (json) {
    io.out(JSON.stringify({ queue: name, redis: describeTarget(client), counts, aof, appendfsync, reconcile }));
    return 0;
  }
  io.out(`queue ${name} on ${describeTarget(client)}`);
  for (const state of STATES)
    io.out(
      `  ${state.padEnd(17)}${String(counts[state] ?? 0).padStart(8)}${NOTES[state] ? `  (${NOTES[state]})` : ''}`,
    );
  io.out(
    aof
      ? `persistence: AOF on, appendfsync ${appendfsync ?? 'unknown'}: ${FSYNC_MEANS[appendfsync ?? 'unknown'] ?? FSYNC_MEANS.unknown}`
      : 'persistence: AOF off: a Redis restart loses queued deliveries. Turn it on: CONFIG SET appendonly yes (and in redis.conf).',
  );
  for (const state of reconcile)
    io.out(
      `reconciler, form ${state.form}: every submission up to ${state.watermark ?? '(none yet)'} looked at${state.lagMs === null ? '' : ` (lag ${Math.round(state.lagMs / 1000)} s: a submission older than that was queued if no delivery had brought it)`}; last walk ended ${state.lastRunAt ?? 'never'}; ${state.requests} requests, ${state.recovered} submissions recovered in all`,
    );
  return 0;
}

const FSYNC_MEANS: Record<string, string> = {
  always: 'Redis writes each acknowledged delivery to disk before it answers, so it survives a crash.',
  everysec:
    'a crash of Redis or its machine can lose the deliveries acknowledged in the last second (a clean restart loses none). For none: CONFIG SET appendfsync always.',
  no: 'the operating system decides when to write, so a crash can lose many seconds of acknowledged deliveries. Prefer always (or everysec).',
  unknown:
    'this Redis refused CONFIG GET (managed Redis often does): ask its provider how often the AOF is written to disk.',
};

/** The AOF fsync policy Redis reports, or null when CONFIG GET is refused (managed Redis). */
async function appendfsyncOf(client: RedisClient): Promise<string | null> {
  try {
    const [, value] = (await client.config('GET', 'appendfsync')) as [string, string];
    return value ?? null;
  } catch {
    return null;
  }
}
