// `retry <id> | --all`: failed deliveries back to the queue with a fresh set of attempts; --all
// takes the failed set as it is when the command starts, once each.
import type { Job } from 'bullmq';
import { InboxError } from '../errors.js';
import { failedIds, jobOrFail, loadJob, type RunOptions, type Session } from './session.js';

export async function retry(session: Session, { io }: RunOptions, id: string | undefined): Promise<number> {
  const { queue } = session;
  const retryOne = async (job: Job) => {
    const state = await job.getState();
    if (state !== 'failed')
      throw new InboxError(
        'job_not_failed',
        `Job ${job.id} is ${state}, not failed: only dead letters can be retried.`,
        { context: { id: job.id, state } },
      );
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    const attempts = job.opts.attempts ?? 1;
    io.out(`retrying ${job.id} (back in the queue with ${attempts} attempt${attempts === 1 ? '' : 's'})`);
  };
  if (id) {
    await retryOne(await jobOrFail(session, id));
    return 0;
  }
  // The failed set as it is now, once each: a delivery that fails again while the command runs is
  // back in the set, and must not be sent again (with a handler that keeps failing, for ever).
  const snapshot = await failedIds(queue, 0, -1);
  let retried = 0;
  let moved = 0;
  for (const failedId of snapshot) {
    const job = await loadJob(session, failedId);
    if (!job || (await job.getState()) !== 'failed') {
      moved += 1; // retried or removed by someone else meanwhile
      continue;
    }
    await retryOne(job);
    retried += 1;
  }
  io.out(
    `${retried} failed deliver${retried === 1 ? 'y' : 'ies'} sent back to the queue${moved ? ` (${moved} no longer failed, left alone)` : ''}.`,
  );
  return 0;
}
