// A bounded cache of prepared keys per secret, for backends whose preparation costs (a Web Crypto
// key import, a keyed Bun hasher), so `verify(secret, …)` pays it once per secret, not per call.
// It holds at most `max` entries, keyed by the secret string the caller passes (a reference to
// that string, not a copy); the prepared keys keep the secret in native memory only (a
// non-extractable CryptoKey, a keyed hasher). The least recently used entry is dropped first.
import type { PreparedKey } from './backend.js';

export function cachePreparedKeys(
  prepare: (secret: string) => PreparedKey,
  max = 16,
): { prepare: (secret: string) => PreparedKey; forget: (secret: string) => void } {
  const entries = new Map<string, PreparedKey>();
  // Most receivers use one secret: checking it first spares the Map on the hot path.
  let lastSecret: string | undefined;
  let lastKey: PreparedKey | undefined;
  return {
    prepare(secret) {
      if (secret === lastSecret) return lastKey!;
      let key = entries.get(secret);
      if (key) entries.delete(secret);
      else key = prepare(secret);
      entries.set(secret, key);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
      lastSecret = secret;
      lastKey = key;
      return key;
    },
    forget(secret) {
      entries.delete(secret);
      if (secret === lastSecret) lastSecret = lastKey = undefined;
    },
  };
}
