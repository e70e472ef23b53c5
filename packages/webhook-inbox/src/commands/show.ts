// `show <id>`: one job in full (payload, headers with credentials masked, error, stack, logs).
import type { Job } from 'bullmq';
import { isReconciledJob, readDelivery, readReconciled } from '../delivery.js';
import type { InboxError } from '../errors.js';
import { isCredentialHeader } from '@forms-api/internal/credentials';
import { printableJson } from '@forms-api/internal/printable';
import { finishedAt, jobOrFail, summary, type RunOptions, type Session } from './session.js';

/** When the job ended, named by how (`show` prints jobs of every state); neither while it has not ended. */
function ending(job: Job, state: string): { completedAt: string | null } | { failedAt: string | null } | object {
  if (state === 'completed') return { completedAt: finishedAt(job) };
  return state === 'failed' ? { failedAt: finishedAt(job) } : {};
}

/**
 * Header values that look like credentials (the toolkit's one rule, by name or by value) are shown
 * as their length only: CLI output ends up in tickets.
 */
function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      isCredentialHeader(name, value) ? `<masked, ${value.length} chars>` : value,
    ]),
  );
}

type ShownDelivery =
  | { origin: 'reconcile'; submission: unknown; receivedAt: string }
  | { payload: unknown; headers: Record<string, string>; receivedAt: string; bytes: number }
  | {
      payload: null;
      body: 'not kept: over the completed body budget';
      headers: Record<string, string>;
      receivedAt: string;
      bytes: number | null;
    }
  | { error: string };

function shownDelivery(job: Job, id: string): ShownDelivery {
  try {
    if (isReconciledJob(job.data)) {
      const { submission, receivedAt } = readReconciled(job.data, id);
      return { origin: 'reconcile', submission, receivedAt: receivedAt.toISOString() };
    }
    const stored = readDelivery(job.data, id);
    return {
      payload: stored.payload,
      headers: maskHeaders(stored.headers),
      receivedAt: stored.receivedAt.toISOString(),
      bytes: stored.rawBody.byteLength,
    };
  } catch (error) {
    if ((error as InboxError).kind !== 'body_not_kept') return { error: (error as Error).message };
    const kept = job.data as { headers?: Record<string, string>; receivedAt?: number; bytes?: number };
    return {
      payload: null,
      body: 'not kept: over the completed body budget',
      headers: maskHeaders(kept.headers ?? {}),
      receivedAt: new Date(kept.receivedAt ?? 0).toISOString(),
      bytes: kept.bytes ?? null,
    };
  }
}

export async function show(session: Session, { json, io }: RunOptions, id: string): Promise<number> {
  const job = await jobOrFail(session, id);
  const state = await job.getState();
  const { logs } = await session.queue.getJobLogs(id);
  const detail = {
    ...summary(job),
    state,
    ...ending(job, state),
    delivery: shownDelivery(job, id),
    logs,
    stacktrace: job.stacktrace ?? [],
  };
  io.out(printableJson(detail, json ? undefined : 2));
  return 0;
}
