export { freePort } from '@forms-api/internal/free-port';

/**
 * Waits for a condition instead of a fixed sleep: resolves with the first truthy answer of `check`,
 * asked every `everyMs` (default 50); fails naming `what` after `timeoutMs` (default 30,000).
 */
export function until<T>(
  what: string,
  check: () => T | Promise<T>,
  options?: { timeoutMs?: number; everyMs?: number },
): Promise<NonNullable<T>>;
