// The timers behind per-attempt timeouts. A fresh setTimeout and clearTimeout per attempt made
// Node switch its event loop's reference on and off twice per call, the largest single cost the
// client added to a request. Where a timer can be re-armed (`refresh` and `unref`: Node, Bun), a
// client keeps its stopped timers unreferenced and re-arms one per attempt; elsewhere (Deno,
// browsers, Workers) each attempt gets its own setTimeout and clearTimeout.

export interface AttemptTimer {
  /** Stops the timer: `onTimeout` will not be called. */
  stop(): void;
}

export interface AttemptTimers {
  /** Calls `onTimeout` after `ms` unless stopped first. The timer holds `onTimeout` until then. */
  start(ms: number, onTimeout: () => void): AttemptTimer;
}

interface Rearmable {
  refresh(): unknown;
  unref(): unknown;
}

interface Slot extends AttemptTimer {
  onTimeout: (() => void) | undefined;
  readonly timer: ReturnType<typeof setTimeout>;
}

// Stopped timers kept per duration; more than this many (after a burst of concurrent calls) are
// cleared instead.
const MAX_IDLE = 64;

export function attemptTimers(): AttemptTimers {
  const idle = new Map<number, Slot[]>();
  const create = (ms: number, onTimeout: () => void): Slot => {
    const slot: Slot = {
      onTimeout,
      // A stopped slot's timer may still fire: it finds no callback and does nothing.
      timer: setTimeout(() => {
        const fire = slot.onTimeout;
        slot.onTimeout = undefined;
        fire?.();
      }, ms),
      stop() {
        slot.onTimeout = undefined;
        const pool = rearmable(slot.timer) ? (idle.get(ms) ?? idle.set(ms, []).get(ms)!) : undefined;
        if (pool && pool.length < MAX_IDLE) pool.push(slot);
        else clearTimeout(slot.timer);
      },
    };
    // Unreferenced, so that a stopped timer left armed never keeps the program running; while an
    // attempt is in flight its connection does.
    if (rearmable(slot.timer)) slot.timer.unref();
    return slot;
  };
  return {
    start(ms, onTimeout) {
      const slot = idle.get(ms)?.pop();
      if (!slot) return create(ms, onTimeout);
      slot.onTimeout = onTimeout;
      (slot.timer as unknown as Rearmable).refresh();
      return slot;
    },
  };
}

function rearmable(timer: unknown): timer is Rearmable {
  return typeof (timer as Partial<Rearmable> | null)?.refresh === 'function' && typeof (timer as Partial<Rearmable>).unref === 'function';
}
