export { freePort } from '@forms-api/internal/free-port';

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
