// HMAC-SHA256 with node:crypto: createHmac to sign, timingSafeEqual to compare.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HmacBackend } from './backend.js';

export const nodeBackend: HmacBackend = {
  prepare(secret) {
    // createHmac encodes a string key as UTF-8, as the scheme requires.
    const digestOf = (body: Uint8Array) => createHmac('sha256', secret).update(body).digest();
    return {
      sign(body) {
        return digestOf(body);
      },
      verify(body, hex) {
        const expected = digestOf(body);
        const given = Buffer.from(hex, 'hex');
        return expected.length === given.length && timingSafeEqual(expected, given);
      },
    };
  },
};
