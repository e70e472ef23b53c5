// HMAC-SHA256 with node:crypto: createHmac to sign, timingSafeEqual to compare.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HmacBackend } from './backend.js';

export const nodeBackend: HmacBackend = {
  prepare(secret) {
    const key = Buffer.from(secret, 'utf8');
    const digestOf = (body: Uint8Array) => createHmac('sha256', key).update(body).digest();
    return {
      async sign(body) {
        return digestOf(body);
      },
      async verify(body, digest) {
        const expected = digestOf(body);
        return expected.length === digest.length && timingSafeEqual(expected, digest);
      },
    };
  },
};
