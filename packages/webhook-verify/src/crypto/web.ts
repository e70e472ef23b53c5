// HMAC-SHA256 with Web Crypto (browsers, Workers, Deno, Bun, edge runtimes): the key is imported
// once per prepared secret, and `subtle.verify` compares in constant time.
import { hexToBytes } from './hex.js';
import type { HmacBackend } from './backend.js';

const encoder = new TextEncoder();
const ALGORITHM = { name: 'HMAC', hash: 'SHA-256' } as const;

function subtle(): SubtleCrypto {
  const api = globalThis.crypto?.subtle;
  if (!api) {
    throw new Error('Web Crypto (globalThis.crypto.subtle) is not available in this runtime; use the Node build (`@forms-api/webhook-verify` under the "node" condition) or a runtime with Web Crypto.');
  }
  return api;
}

export const webBackend: HmacBackend = {
  prepare(secret) {
    let key: Promise<CryptoKey> | undefined;
    const getKey = () => (key ??= subtle().importKey('raw', encoder.encode(secret), ALGORITHM, false, ['sign', 'verify']));
    return {
      async sign(body) {
        return new Uint8Array(await subtle().sign('HMAC', await getKey(), body as BufferSource));
      },
      async verify(body, hex) {
        return subtle().verify('HMAC', await getKey(), hexToBytes(hex) as BufferSource, body as BufferSource);
      },
    };
  },
};
