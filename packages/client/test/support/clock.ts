// A fake clock for retry tests: sleep records the delay and returns at once (still honouring an
// aborted signal), random is fixed, now is settable.
import type { Clock } from '../../src/index.js';

export function fakeClock(random = 0.5, now = Date.UTC(2025, 0, 1)) {
  const delays: number[] = [];
  const state = { now };
  const clock: Clock & Required<Pick<Clock, 'now' | 'sleep' | 'random'>> = {
    now: () => state.now,
    random: () => random,
    sleep: async (ms, signal) => {
      delays.push(ms);
      if (signal.aborted) throw signal.reason;
    },
  };
  return { clock, delays, state };
}

export const TOKEN = '7|sEcReTtOkEnValue0123456789';
