export { freePort } from '@forms-api/internal/free-port';

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
