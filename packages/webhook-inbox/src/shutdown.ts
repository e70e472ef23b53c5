// Graceful shutdown on SIGTERM (what Kubernetes, systemd, PM2 and Docker send) and SIGINT: run the
// given steps in order (stop the HTTP server, close the inbox, close the worker), then exit. A
// deadline or a second signal exits at once; jobs still running then are taken over by another
// worker once their lock expires, so nothing is lost, only retried.

export type ShutdownSignal = 'SIGTERM' | 'SIGINT' | 'SIGHUP' | 'SIGQUIT' | 'SIGUSR1' | 'SIGUSR2';

export interface CloseOnSignalsOptions {
  /** Default `['SIGTERM', 'SIGINT']`. */
  signals?: readonly ShutdownSignal[];
  /** Exit with code 1 if the steps have not finished by then. Default 30,000 ms. */
  timeoutMs?: number;
  /** Call `process.exit` when done (0) or out of time (1). Default true. */
  exit?: boolean;
  /** Default: one stderr line per event. */
  log?: (line: string) => void;
}

type Step = (() => unknown) | { close(): unknown };

/**
 * `closeOnSignals([() => new Promise((r) => server.close(r)), inbox, worker])`. Each step is a
 * function or anything with a `close()`; each is awaited before the next. Returns a function that
 * removes the signal handlers.
 */
export function closeOnSignals(steps: readonly Step[], options: CloseOnSignalsOptions = {}): () => void {
  const {
    signals = ['SIGTERM', 'SIGINT'],
    timeoutMs = 30_000,
    exit = true,
    log = (line: string) => console.error(line),
  } = options;
  let shuttingDown = false;
  const onSignal = (signal: ShutdownSignal) => {
    if (shuttingDown) {
      log(`[webhook-inbox] ${signal} again: exiting now; jobs still running will be retried by another worker.`);
      if (exit) process.exit(1);
      return;
    }
    shuttingDown = true;
    log(`[webhook-inbox] ${signal}: taking no new work, finishing what is in hand (at most ${timeoutMs} ms).`);
    const deadline = setTimeout(() => {
      log(
        `[webhook-inbox] shutdown took longer than ${timeoutMs} ms: exiting; unfinished jobs will be retried by another worker.`,
      );
      if (exit) process.exit(1);
    }, timeoutMs);
    deadline.unref();
    (async () => {
      for (const step of steps) await (typeof step === 'function' ? step() : step.close());
    })().then(
      () => {
        clearTimeout(deadline);
        log('[webhook-inbox] shutdown complete.');
        if (exit) process.exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        log(`[webhook-inbox] shutdown failed: ${(error as Error)?.message ?? String(error)}`);
        if (exit) process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
