export { freePort } from '@forms-api/internal/free-port';

/** A server started by `listen`: its origin URL, its port, and `close()`. */
export interface Listening {
  readonly url: string;
  readonly port: number;
  /** Ends open connections and resolves once the server is closed. */
  close(): Promise<void>;
}

/**
 * Starts `server` (a node:http or node:net server, not yet listening) on 127.0.0.1 at a port the
 * system picks. Resolves with its origin URL, its port, and `close()`, which ends open connections
 * (a kept-alive one would hold the server open) and resolves once it is closed.
 */
export function listen(server: import('node:net').Server): Promise<Listening>;

/**
 * Runs pnpm and returns what it printed on standard output: the pnpm that runs this process (a pnpm
 * script or task sets `npm_execpath` in `env`, by default `process.env`), or else the pinned
 * release (package.json's `packageManager`) through npx. A failure throws execFileSync's error,
 * which holds both streams.
 */
export function pnpm(
  args: readonly string[],
  options?: { cwd?: string; env?: Record<string, string | undefined> },
): string;

/**
 * Waits for a condition instead of a fixed sleep: resolves with the first truthy answer of `check`,
 * asked every `everyMs` (default 50); fails naming `what` after `timeoutMs` (default 30,000). A check
 * that throws fails the wait, unless `retryErrors` is set: then it is asked again, and the last
 * error is named if time runs out.
 */
export function until<T>(
  what: string,
  check: () => T | Promise<T>,
  options?: { timeoutMs?: number; everyMs?: number; retryErrors?: boolean },
): Promise<NonNullable<T>>;
