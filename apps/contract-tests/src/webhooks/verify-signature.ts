// Verifies `X-Webhook-Signature: sha256=<hex>` over the raw body bytes with the toolkit's own
// verifier, so the suite checks deliveries exactly as a receiver using the package would.
import { verify } from '@forms-api/webhook-verify';

export async function verifySignature(secret: string, rawBody: Uint8Array | string, header: string | undefined): Promise<boolean> {
  return verify(secret, rawBody, header);
}
