// Time and randomness, injectable so that tests run on a fake clock: used by retries, timeouts
// and pacing.
import { invalidOption } from './errors.js';

export interface Clock {
  now?: () => number;
  /** Waits `ms`; must reject when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A number in [0, 1), for the backoff jitter. */
  random?: () => number;
}

export interface ResolvedClock {
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random: () => number;
}

export function resolveClock(clock: Clock | undefined): ResolvedClock {
  if (clock !== undefined && (clock === null || typeof clock !== 'object'))
    throw invalidOption('clock', 'must be an object { now?, sleep?, random? }.');
  for (const key of ['now', 'sleep', 'random'] as const)
    if (clock?.[key] !== undefined && typeof clock[key] !== 'function')
      throw invalidOption(`clock.${key}`, 'must be a function.');
  return {
    now: clock?.now ?? Date.now,
    sleep: clock?.sleep ?? sleep,
    random: clock?.random ?? Math.random,
  };
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
