// `failed`: the dead letters, newest first, each with its attempts, error, form and submission.
import type { Job } from 'bullmq';
import { printable } from '@forms-api/internal/printable';
import { failedIds, finishedAt, loadJob, summary, type RunOptions, type Session } from './session.js';

/** BullMQ's reason for a job whose lock expired more often than `maxStalledCount` allows. */
const STALLED_REASON = 'job stalled more than allowable limit';

export async function failed(session: Session, { json, io }: RunOptions, limit: number): Promise<number> {
  const { queue } = session;
  const jobs = (await Promise.all((await failedIds(queue, 0, limit - 1)).map((id) => loadJob(session, id)))).filter(
    (job): job is Job => Boolean(job),
  );
  const rows = jobs.map((job) => ({
    ...summary(job),
    failedAt: finishedAt(job),
  }));
  if (json) {
    io.out(JSON.stringify(rows));
    return 0;
  }
  if (rows.length === 0) {
    io.out('No failed deliveries.');
    return 0;
  }
  for (const row of rows) {
    io.out(
      `${row.id}  attempts ${row.attemptsMade}/${row.maxAttempts}  failed ${row.failedAt ?? '?'}  form ${row.formId ?? '?'} submission ${row.submissionId ?? '?'}`,
    );
    // The reason may quote form answers: escaped (ESC, CR, BEL… as \uXXXX) and on one line.
    io.out(`    ${printable(row.failedReason ?? '')}`);
    if (row.failedReason === STALLED_REASON)
      io.out(
        "    (BullMQ's words: its worker stopped renewing the lock twice, because the process died or a handler blocked the event loop; `show` prints the job's log)",
      );
  }
  const total = await queue.getFailedCount();
  if (total > rows.length) io.out(`(${rows.length} of ${total}; --limit N for more)`);
  return 0;
}
