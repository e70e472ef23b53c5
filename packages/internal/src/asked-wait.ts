// The one reader of the wait a rate-limited answer asks for.

/**
 * How long the service asks to wait, read the same way by the client (its pacer, its retry
 * policy, an error's `retryAfterMs`) and by the contract suite's report of a 429:
 * `Retry-After` (delta-seconds or an HTTP date, RFC 9110 §10.2.3), else `X-RateLimit-Reset`
 * (the Unix second the window ends: the service sends both on a 429). Undefined when neither is
 * there and readable; never negative.
 */
export function askedWait(headers: Headers, now: number): number | undefined {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter !== undefined) {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers.get('x-ratelimit-reset')?.trim();
  return reset !== undefined && /^\d+$/.test(reset) ? Math.max(0, Number(reset) * 1000 - now) : undefined;
}
