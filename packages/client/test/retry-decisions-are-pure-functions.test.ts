// The retry policy on its own: decideRetry is a pure function of the policy, the method, the
// attempt number and what the attempt ended in.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { askedWait } from '@forms-api/internal/asked-wait';
import { backoff, decideRetry, type ResolvedRetry } from '../src/retry.js';

const policy: ResolvedRetry = {
  retries: 2,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
  retryOn: new Set([408, 429, 502, 503, 504]),
  unsafe: false,
  onRetry: undefined,
};
const NOW = Date.UTC(2025, 0, 1);
const half = () => 0.5;
const status = (s: number, retryAfter: string | null = null) =>
  ({
    kind: 'status',
    status: s,
    askedWaitMs: askedWait(new Headers(retryAfter ? { 'retry-after': retryAfter } : {}), NOW),
  }) as const;

it('retries network errors and timeouts of a GET with the backoff', () => {
  expect(decideRetry(policy, 'GET', 1, { kind: 'network', reached: true }, half)).toEqual({
    retry: true,
    reason: 'network',
    delayMs: 150,
    retryAfter: false,
  });
  expect(decideRetry(policy, 'GET', 2, { kind: 'timeout', reached: true }, half)).toEqual({
    retry: true,
    reason: 'timeout',
    delayMs: 300,
    retryAfter: false,
  });
});

it('stops once the retries are spent, or when retries are off', () => {
  expect(decideRetry(policy, 'GET', 3, { kind: 'network', reached: true }, half)).toEqual({ retry: false });
  expect(decideRetry(false, 'GET', 1, { kind: 'network', reached: true }, half)).toEqual({ retry: false });
});

it('retries only the statuses of retryOn, with their kind as the reason', () => {
  expect(decideRetry(policy, 'GET', 1, status(503), half)).toMatchObject({
    retry: true,
    reason: 'server',
    status: 503,
  });
  expect(decideRetry(policy, 'GET', 1, status(429), half)).toMatchObject({
    retry: true,
    reason: 'rate_limited',
    status: 429,
  });
  expect(decideRetry(policy, 'GET', 1, status(500), half)).toEqual({ retry: false });
  expect(decideRetry(policy, 'GET', 1, status(404), half)).toEqual({ retry: false });
});

it('waits Retry-After instead of the backoff, and not at all when it is beyond maxRetryAfterMs', () => {
  expect(decideRetry(policy, 'GET', 1, status(429, '7'), half)).toEqual({
    retry: true,
    reason: 'rate_limited',
    status: 429,
    delayMs: 7_000,
    retryAfter: true,
  });
  expect(decideRetry(policy, 'GET', 1, status(429, '3600'), half)).toEqual({ retry: false });
  expect(decideRetry(policy, 'GET', 1, status(503, new Date(NOW + 12_000).toUTCString()), half)).toMatchObject({
    delayMs: 12_000,
    retryAfter: true,
  });
});

it('never retries a POST unless unsafe', () => {
  expect(decideRetry(policy, 'POST', 1, { kind: 'network', reached: false }, half)).toEqual({ retry: false });
  expect(decideRetry(policy, 'POST', 1, status(503), half)).toEqual({ retry: false });
  expect(decideRetry({ ...policy, unsafe: true }, 'POST', 1, status(503), half)).toMatchObject({ retry: true });
});

it('backoff is full jitter under min(maxDelayMs, baseDelayMs·2^(n-1)), for any draw', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      (n, r) => {
        const delay = backoff(policy, n, () => r);
        const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
        return Number.isInteger(delay) && delay >= 0 && delay < Math.max(1, ceiling);
      },
    ),
  );
});
