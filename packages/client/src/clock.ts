// Time and randomness, injectable so that tests run on a fake clock: used by retries, timeouts
// and pacing.
import { invalidOption } from './errors.js';
import { keysOf } from '@forms-api/internal/option-names';

export interface Clock {
  now?: () => number;
  /** Waits `ms`; must reject when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A number in [0, 1), for the backoff jitter. */
  random?: () => number;
  /**
   * Calls `onTimeout` after `ms` unless the returned stop function is called first: each
   * attempt's timeout (default: setTimeout). Separate from `sleep`, so that a test's `sleep` may
   * return at once without every attempt timing out.
   */
  timer?: (ms: number, onTimeout: () => void) => () => void;
}

export type ResolvedClock = Readonly<Required<Clock>>;

const CLOCK_KEYS = keysOf<Clock>({ now: true, sleep: true, random: true, timer: true });

export function resolveClock(clock: Clock | undefined): ResolvedClock {
  if (clock !== undefined && (clock === null || typeof clock !== 'object'))
    throw invalidOption('clock', 'must be an object { now?, sleep?, random?, timer? }.');
  // Members of its own are kept out of the check, not refused: a clock is an object of the
  // caller's (a test's fake clock, a fake-timer library's), not a bag of settings.
  for (const key of CLOCK_KEYS) {
    const member = clock?.[key as keyof Clock];
    if (member !== undefined && typeof member !== 'function')
      throw invalidOption(`clock.${key}`, 'must be a function.');
  }
  return {
    now: clock?.now ?? Date.now,
    sleep: clock?.sleep ?? sleep,
    random: clock?.random ?? Math.random,
    timer: clock?.timer ?? timer,
  };
}

/** The default timer: unreferenced, as an attempt in flight keeps the program running through its connection. */
function timer(ms: number, onTimeout: () => void): () => void {
  const handle = setTimeout(onTimeout, ms);
  (handle as { unref?: () => void }).unref?.();
  return () => clearTimeout(handle);
}

/** The default sleep: a timer that rejects with the signal's reason when it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
