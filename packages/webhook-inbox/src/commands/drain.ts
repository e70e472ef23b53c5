// `drain`: waits until nothing is waiting, delayed or running (before a deploy); deletes nothing.
import type { RunOptions, Session } from './session.js';

const PENDING = ['waiting', 'prioritized', 'delayed', 'active', 'waiting-children'] as const;

export async function drain({ queue }: Session, { io }: RunOptions, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const counts = await queue.getJobCounts(...PENDING);
    const pending = PENDING.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
    const line = PENDING.map((state) => `${state} ${counts[state] ?? 0}`).join(', ');
    if (pending === 0) {
      io.out('drained: nothing waiting, delayed or running.');
      return 0;
    }
    if (line !== last) io.out(`pending: ${line}`);
    last = line;
    if (Date.now() >= deadline) {
      io.err(`still ${pending} pending after ${timeoutMs} ms (${line}). Are workers running? Nothing was deleted.`);
      return 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
