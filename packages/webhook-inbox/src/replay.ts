// Replay: sends chosen finished deliveries (failed or completed, received in a time range, of one
// form) back to the queue to run again, after verifying their stored raw bytes against the secrets
// configured now. The job itself goes back (BullMQ's retry), so a delivery keeps its id (the
// handler's idempotency key) and can never be queued twice: a replayed job has left the set it was
// chosen from, and a concurrent replay of it finds it gone and says so.
import type { Job, Queue } from 'bullmq';
import { createVerifier, isWebhookVerifyError, SIGNATURE_HEADER } from '@forms-api/webhook-verify';
import { isReconciledJob, readDelivery, readReconciled } from './delivery.js';

export type ReplayStatus = 'failed' | 'completed';

export interface ReplaySelection {
  status: ReplayStatus;
  /** Deliveries received at or after this time. */
  since?: Date;
  /** Deliveries received before this time. */
  until?: Date;
  /** Only this form's deliveries. */
  formId?: number;
}

/**
 * What happened to one chosen delivery: `replay` (dry run: it would be replayed), `replayed`, or
 * `skipped` with the reason it cannot be replayed.
 */
export interface ReplayOutcome {
  id: string;
  formId: number | null;
  submissionId: number | null;
  receivedAt: string | null;
  action: 'replay' | 'replayed' | 'skipped';
  /** Why it was skipped: a machine-readable kind … */
  reason?: 'not_a_delivery' | 'reconciled' | 'body_not_kept' | 'signature_rejected' | 'no_longer_finished';
  /** … and a sentence for people. */
  detail?: string;
}

export interface ReplayOptions {
  /** The webhook secret(s) the stored bytes must verify against (several while rotating). */
  secret: string | readonly string[];
  /** List what would be replayed; change nothing. */
  dryRun?: boolean;
}

const BATCH = 50;

/**
 * Replays the deliveries of `queue` chosen by `selection`, oldest finished first. Deliveries whose
 * bytes cannot be read or do not verify are skipped with a reason, never guessed at.
 */
export async function replayDeliveries(
  queue: Queue,
  selection: ReplaySelection,
  options: ReplayOptions,
): Promise<ReplayOutcome[]> {
  const verifier = createVerifier({ secret: options.secret });
  // Ids first (one ZRANGE): the jobs themselves, bodies and all, are read a batch at a time.
  const ids = await queue.getRanges([selection.status], 0, -1, true);
  const outcomes: ReplayOutcome[] = [];
  for (let start = 0; start < ids.length; start += BATCH) {
    const jobs = await Promise.all(ids.slice(start, start + BATCH).map((id) => queue.getJob(id)));
    for (const job of jobs) {
      if (!job) continue; // removed by retention since the ids were read: no longer finished in this set
      const outcome = await consider(job, selection, verifier, options.dryRun ?? false);
      if (outcome) outcomes.push(outcome);
    }
  }
  return outcomes;
}

type Verifier = ReturnType<typeof createVerifier>;

async function consider(
  job: Job,
  selection: ReplaySelection,
  verifier: Verifier,
  dryRun: boolean,
): Promise<ReplayOutcome | undefined> {
  const id = job.id as string;
  const data = job.data as { body?: unknown; receivedAt?: unknown } | null;
  const receivedAtMs = typeof data?.receivedAt === 'number' ? data.receivedAt : undefined;
  const base = {
    id,
    formId: null,
    submissionId: null,
    receivedAt: receivedAtMs === undefined ? null : new Date(receivedAtMs).toISOString(),
  };
  // Outside the time range: not chosen. A job without a receive time cannot be placed in it, so it
  // is only reported when no range was asked for.
  if (receivedAtMs === undefined ? selection.since || selection.until : !inRange(receivedAtMs, selection))
    return undefined;
  // Found by the reconciler: no signed bytes to verify or run again; its submission is in the list.
  if (isReconciledJob(data)) {
    let formId: number | null = null;
    try {
      formId = readReconciled(data, id).submission.formId;
    } catch {
      // Unreadable: still reported, without its form.
    }
    if (selection.formId !== undefined && formId !== selection.formId) return undefined;
    return {
      ...base,
      formId,
      action: 'skipped',
      reason: 'reconciled',
      detail:
        'The reconciler queued it from the submission list: it has no signed bytes to verify, so it cannot be replayed. Run `forms-webhook-inbox reconcile` for its form instead if it must be taken again.',
    };
  }
  // The completed body budget drops the oldest kept bodies and keeps their record (`body: null`): say so, do not guess.
  if (
    data &&
    typeof data === 'object' &&
    (data.body === null || data.body === undefined) &&
    receivedAtMs !== undefined
  ) {
    return {
      ...base,
      action: 'skipped',
      reason: 'body_not_kept',
      detail:
        "Its raw body is no longer stored (completed jobs keep their bodies within the workers' `completedBodyBytes` budget, the oldest dropped first), so it cannot be verified or run again; nor can its form be told.",
    };
  }
  let stored: ReturnType<typeof readDelivery>;
  try {
    stored = readDelivery(job.data, id);
  } catch (error) {
    return { ...base, action: 'skipped', reason: 'not_a_delivery', detail: (error as Error).message };
  }
  const formId = typeof stored.payload?.form_id === 'number' ? stored.payload.form_id : null;
  const submissionId = typeof stored.payload?.submission_id === 'number' ? stored.payload.submission_id : null;
  if (selection.formId !== undefined && formId !== selection.formId) return undefined;
  const described = { ...base, formId, submissionId };
  try {
    await verifier.parseWebhook(stored.rawBody, stored.headers[SIGNATURE_HEADER]);
  } catch (error) {
    const reason = isWebhookVerifyError(error) ? error.kind : 'invalid';
    return {
      ...described,
      action: 'skipped',
      reason: 'signature_rejected',
      detail: `Its stored bytes do not verify against the configured secret(s) (${reason}). Was the secret rotated away? Pass the secret it was signed with as well.`,
    };
  }
  if (dryRun) return { ...described, action: 'replay' };
  try {
    await job.retry(selection.status, { resetAttemptsMade: true, resetAttemptsStarted: true });
  } catch {
    // Another replay (or `retry`) took it first, or retention removed it: it is not queued twice.
    const state = await job.getState().catch(() => 'unknown');
    return {
      ...described,
      action: 'skipped',
      reason: 'no_longer_finished',
      detail: `It is no longer ${selection.status} (now ${state}): another replay or retry has already sent it back, so it is not queued twice.`,
    };
  }
  return { ...described, action: 'replayed' };
}

function inRange(receivedAt: number, { since, until }: ReplaySelection): boolean {
  return (
    (since === undefined || receivedAt >= since.getTime()) && (until === undefined || receivedAt < until.getTime())
  );
}
