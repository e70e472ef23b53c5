// The retry policy's arithmetic: full-jitter exponential backoff and the reading of `Retry-After`.

/** Full-jitter exponential backoff: uniform in [0, min(cap, base·2^(n-1))). */
export function backoff(retry: { readonly baseDelayMs: number; readonly maxDelayMs: number }, retryNumber: number, random: () => number): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (retryNumber - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Milliseconds to wait from a `Retry-After` value: delta-seconds or an HTTP date
 * (RFC 9110 §10.2.3). Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
