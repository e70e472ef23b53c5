// What one handler run can leave behind, made into facts the worker can act on: whatever the
// handler threw as a readable Error (BullMQ needs `message`), and whether the event loop was blocked
// long enough during the run for the job's lock to expire.
import { InboxError } from './errors.js';

const describe = (value: unknown): string => {
  if (value === null || value === undefined) return String(value);
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return `${typeof value} ${json.length > 200 ? `${json.slice(0, 200)}…` : json}`;
  } catch {
    // A cycle or a throwing toJSON: fall back to its type.
  }
  return `a ${typeof value}`;
};

/**
 * The Error a failed run is recorded with. An Error whose `message`, `name` or `stack` can be read
 * is kept as it is; anything else (a string, `null`, `undefined`, an Error whose getter throws)
 * becomes a `handler_failed` InboxError that says what was thrown, so the attempt is counted and
 * the dead letter says why, instead of BullMQ failing on it and the job stalling.
 */
export function attemptError(thrown: unknown): Error {
  if (thrown instanceof Error) {
    try {
      if (
        typeof thrown.message === 'string' &&
        typeof thrown.name === 'string' &&
        (thrown.stack === undefined || typeof thrown.stack === 'string')
      )
        return thrown;
    } catch {
      // A getter threw: described below.
    }
    let kind = 'an Error';
    try {
      kind = `an Error (${String(thrown.constructor?.name)})`;
    } catch {
      // Even the constructor is hostile: "an Error" it is.
    }
    return new InboxError(
      'handler_failed',
      `The handler threw ${kind} whose message could not be read (its \`message\`, \`name\` or \`stack\` getter threw).`,
    );
  }
  if (typeof thrown === 'string')
    return new InboxError('handler_failed', thrown === '' ? 'The handler threw an empty string.' : thrown);
  return new InboxError(
    'handler_failed',
    `The handler failed with ${describe(thrown)} instead of an Error: throw an Error that says what went wrong.`,
  );
}

/**
 * Measures how long the event loop was blocked while runs are in progress: a timer that should
 * tick every `tickMs` records each late tick against the runs in progress. While the loop is
 * blocked BullMQ cannot renew locks, so a run blocked longer than the renewal period may have lost
 * its job to another worker.
 */
export function eventLoopWatch(tickMs: number) {
  const runs = new Map<object, { blockedMs: number }>();
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  const tick = () => {
    const now = performance.now();
    const blocked = now - last - tickMs;
    last = now;
    if (blocked > 0) for (const run of runs.values()) run.blockedMs = Math.max(run.blockedMs, blocked);
  };
  return {
    /** Starts watching a run; call the returned function when it settles, for the longest block (ms). */
    start(): () => number {
      const key = {};
      const run = { blockedMs: 0 };
      runs.set(key, run);
      if (!timer) {
        last = performance.now();
        timer = setInterval(tick, tickMs);
        timer.unref();
      }
      return () => {
        tick();
        runs.delete(key);
        if (runs.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
        return run.blockedMs;
      };
    },
  };
}
