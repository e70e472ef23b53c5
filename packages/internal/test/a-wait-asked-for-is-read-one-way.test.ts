// The wait a rate-limited answer asks for, read one way by the client (its pacer, its retries, its
// errors) and the contract suite (its report of a 429).
import { expect, it } from 'vitest';
import { askedWait } from '../src/asked-wait.js';

const NOW = Date.UTC(2025, 0, 1);

it('reads Retry-After in seconds or as an HTTP date, else X-RateLimit-Reset, never negative', () => {
  const asked = (headers: Record<string, string>) => askedWait(new Headers(headers), NOW);
  expect(asked({ 'retry-after': '120' })).toBe(120_000);
  expect(asked({ 'retry-after': new Date(NOW - 5_000).toUTCString() })).toBe(0);
  expect(asked({ 'retry-after': 'soon' })).toBeUndefined();
  expect(asked({})).toBeUndefined();
  // The service's reset is the Unix second its window ends.
  expect(asked({ 'x-ratelimit-reset': String(NOW / 1000 + 42) })).toBe(42_000);
  expect(asked({ 'x-ratelimit-reset': String(NOW / 1000 - 42) })).toBe(0);
  expect(asked({ 'x-ratelimit-reset': 'tomorrow' })).toBeUndefined();
  // Retry-After first; an unreadable one leaves the reset to say.
  expect(asked({ 'retry-after': '7', 'x-ratelimit-reset': String(NOW / 1000 + 42) })).toBe(7_000);
  expect(asked({ 'retry-after': 'soon', 'x-ratelimit-reset': String(NOW / 1000 + 42) })).toBe(42_000);
});
