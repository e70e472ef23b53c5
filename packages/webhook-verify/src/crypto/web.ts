// HMAC-SHA256 with Web Crypto (Workers, browsers, edge runtimes). Importing the key is the costly
// part at small sizes, so imported keys are cached per secret (bounded: key-cache.ts), and once
// a key is imported, a check costs one `subtle` promise, not two; `subtle.verify` compares in
// constant time.
import { WebhookVerifyError } from '../core/errors.js';
import type { HmacBackend, PreparedKey } from './backend.js';
import { hexToBytes } from './hex.js';
import { cachePreparedKeys } from './key-cache.js';

const encoder = new TextEncoder();
const ALGORITHM = { name: 'HMAC', hash: 'SHA-256' } as const;

function subtle(): SubtleCrypto {
  const api = globalThis.crypto?.subtle;
  if (!api) {
    throw new WebhookVerifyError(
      'unsupported_runtime',
      'Web Crypto (globalThis.crypto.subtle) is not available in this runtime (a browser has it only on https pages and localhost); use the Node build (`@forms-api/webhook-verify` under the "node" condition) or a runtime with Web Crypto.',
    );
  }
  return api;
}

function importHmacKey(secret: string, onFailure: () => void): PreparedKey {
  let key: CryptoKey | undefined;
  const pending = subtle()
    .importKey('raw', encoder.encode(secret), ALGORITHM, false, ['sign', 'verify'])
    .then(
      (imported) => (key = imported),
      (error: unknown) => {
        // A failed import must not stay cached: the next call tries again.
        onFailure();
        throw error;
      },
    );
  return {
    sign(body) {
      const signWith = (k: CryptoKey) =>
        subtle()
          .sign('HMAC', k, body as BufferSource)
          .then((digest) => new Uint8Array(digest));
      return key ? signWith(key) : pending.then(signWith);
    },
    verify(body, hex) {
      const verifyWith = (k: CryptoKey) =>
        subtle().verify('HMAC', k, hexToBytes(hex) as BufferSource, body as BufferSource);
      return key ? verifyWith(key) : pending.then(verifyWith);
    },
  };
}

const cache = cachePreparedKeys((secret) => importHmacKey(secret, () => cache.forget(secret)));

// hexToBytes trusts its input, so the core vets the header before it gets here.
export const webBackend: HmacBackend = { matchesHexExactly: false, prepare: cache.prepare };
