// Attempt timeouts on the client's Clock, fired by the test when it decides (e.g. when its server
// has received a request it will never answer), so that timeout tests do not wait in real time.
import type { Clock } from '../../src/index.js';

export function manualTimers() {
  const pending = new Set<() => void>();
  const started: number[] = [];
  const timer: NonNullable<Clock['timer']> = (ms, onTimeout) => {
    started.push(ms);
    const entry = () => onTimeout();
    pending.add(entry);
    return () => void pending.delete(entry);
  };
  return {
    timer,
    /** The durations of the timers started, in order. */
    started,
    /** How many timers are running. */
    running: () => pending.size,
    /** Fires every running timer. */
    fire() {
      const due = [...pending];
      pending.clear();
      for (const onTimeout of due) onTimeout();
    },
  };
}
