// The documented rate limit (the spec's shared bucket, observed: 100 requests per minute per
// user), as fixed windows per key. Disable-able, because test suites send far more than that.
// Expired windows are dropped once per window length, so the memory held is bounded by the keys
// of two windows.
import { SHARED_RATE_LIMIT } from '@forms-api/types';

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

/** The service's shared bucket, as the spec states it: the sandbox's limit unless told otherwise. */
export const SERVICE_RATE_LIMIT: RateLimitOptions = {
  limit: SHARED_RATE_LIMIT.limit,
  windowMs: SHARED_RATE_LIMIT.windowSeconds * 1000,
};

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export interface RateLimiter {
  (key: string): RateDecision;
  /** How many keys have a window in memory. */
  readonly size: number;
}

export function createRateLimiter(options: RateLimitOptions | false, now: () => number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();

  function evictExpired(t: number): void {
    if (!options || t - lastSweep < options.windowMs) return;
    lastSweep = t;
    for (const [key, window] of windows) if (t - window.start >= options.windowMs) windows.delete(key);
  }

  const decide = (key: string): RateDecision => {
    if (!options) return { allowed: true, headers: {} };
    const t = now();
    evictExpired(t);
    let window = windows.get(key);
    if (!window || t - window.start >= options.windowMs) {
      window = { start: t, count: 0 };
      windows.set(key, window);
    }
    window.count++;
    const remaining = Math.max(0, options.limit - window.count);
    const resetAt = window.start + options.windowMs;
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(options.limit),
      'X-RateLimit-Remaining': String(remaining),
    };
    if (window.count > options.limit) {
      return {
        allowed: false,
        headers: {
          ...headers,
          'Retry-After': String(Math.max(1, Math.ceil((resetAt - t) / 1000))),
          'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
        },
      };
    }
    return { allowed: true, headers };
  };
  return Object.defineProperty(decide, 'size', { get: () => windows.size }) as RateLimiter;
}
