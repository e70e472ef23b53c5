// Verifies `X-Webhook-Signature: sha256=<hex>` over the raw body bytes.
// AT MERGE: replace the body of verifySignature with `verify(secret, rawBody, header)` from
// @forms-api/webhook-verify; keep this module as the suite's single entry point.
import { createHmac, timingSafeEqual } from 'node:crypto';

export async function verifySignature(secret: string, rawBody: Uint8Array | string, header: string | undefined): Promise<boolean> {
  if (!header || !/^sha256=[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody).digest();
  // Constant-time comparison: the suite should model what a receiver must do.
  return timingSafeEqual(expected, Buffer.from(header.slice('sha256='.length), 'hex'));
}
