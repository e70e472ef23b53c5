// HMAC-SHA256 with node:crypto. The digest is compared in its hex form with timingSafeEqual, which
// spares decoding the header's hex on every call (the header parser already vetted its digits).
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HmacBackend } from './backend.js';

export const nodeBackend: HmacBackend = {
  prepare(secret) {
    // createHmac encodes a string key as UTF-8, as the scheme requires.
    return {
      sign(body) {
        return createHmac('sha256', secret).update(body).digest();
      },
      verify(body, hex) {
        const expected = Buffer.from(createHmac('sha256', secret).update(body).digest('hex'), 'latin1');
        const given = Buffer.from(hex, 'latin1');
        return expected.length === given.length && timingSafeEqual(expected, given);
      },
    };
  },
};
