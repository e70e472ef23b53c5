// verify(secret, …) prepares a secret's key once (a Web Crypto import, a keyed Bun hasher) and
// keeps at most a bounded number of them; a key whose preparation failed is not kept.
import { describe, expect, it } from 'vitest';
import { cachePreparedKeys } from '../src/crypto/key-cache.js';
import type { PreparedKey } from '../src/crypto/backend.js';

const fakeKey = (): PreparedKey => ({ sign: () => new Uint8Array(32), verify: () => true });

describe('the prepared-key cache', () => {
  it('prepares each secret once while it stays among the most recently used', () => {
    const prepared: string[] = [];
    const cache = cachePreparedKeys((secret) => (prepared.push(secret), fakeKey()), 3);
    for (let i = 0; i < 5; i++) for (const secret of ['a', 'b', 'a', 'c']) cache.prepare(secret);
    expect(prepared).toEqual(['a', 'b', 'c']);
  });

  it('drops the least recently used secret past its bound', () => {
    const prepared: string[] = [];
    const cache = cachePreparedKeys((secret) => (prepared.push(secret), fakeKey()), 2);
    for (const secret of ['a', 'b', 'a', 'c', 'a', 'b']) cache.prepare(secret);
    // 'b' was the least recently used when 'c' arrived, so only 'b' is prepared twice.
    expect(prepared).toEqual(['a', 'b', 'c', 'b']);
  });

  it('forgets a secret on request (a failed key import), so the next call prepares it again', () => {
    const prepared: string[] = [];
    const cache = cachePreparedKeys((secret) => (prepared.push(secret), fakeKey()));
    cache.prepare('a');
    cache.forget('a');
    cache.prepare('a');
    expect(prepared).toEqual(['a', 'a']);
  });

  it('returns the same prepared key for the same secret', () => {
    const cache = cachePreparedKeys(() => fakeKey());
    expect(cache.prepare('a')).toBe(cache.prepare('a'));
    expect(cache.prepare('a')).not.toBe(cache.prepare('b'));
  });
});
