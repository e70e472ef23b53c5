// A virtual clock for pacing tests: `sleep` never waits in real time; sleepers wake one at a
// time, earliest first, each on its own turn of the event loop, and `now` jumps to the time it
// asked for. So requests paced for minutes run in milliseconds, in the order and at the virtual
// times the pacer chose.
import type { Clock } from '../../src/index.js';

interface Sleeper {
  readonly at: number;
  readonly resolve: () => void;
}

export function virtualClock(start = Date.UTC(2025, 0, 1)) {
  let now = start;
  const sleepers: Sleeper[] = [];
  const slept: number[] = [];
  let scheduled = false;
  const wakeNext = () => {
    if (scheduled || sleepers.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      // Stable: sleepers due at the same time wake in the order they slept.
      sleepers.sort((a, b) => a.at - b.at);
      const next = sleepers.shift();
      if (next) {
        now = Math.max(now, next.at);
        next.resolve();
      }
      wakeNext();
    });
  };
  const clock: Clock & Required<Pick<Clock, 'now' | 'sleep' | 'random'>> = {
    now: () => now,
    random: () => 0.5,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        slept.push(ms);
        const sleeper: Sleeper = {
          at: now + ms,
          resolve: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          sleepers.splice(sleepers.indexOf(sleeper), 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        sleepers.push(sleeper);
        wakeNext();
      }),
  };
  return { clock, slept, elapsed: () => now - start, now: () => now };
}
