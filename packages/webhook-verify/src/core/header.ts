// The one parser of the X-Webhook-Signature header, shared by every build: exactly `sha256=`
// and 64 lowercase hex digits, nothing else (no whitespace, no uppercase, no other scheme).
import { bytesToHex } from '../crypto/hex.js';

const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/** `hex` is the 64 lowercase hex digits of the digest; each backend decodes it its own fastest way. */
export type ParsedSignature = { ok: true; hex: string } | { ok: false; reason: 'missing_signature' | 'malformed_signature' };

export const SIGNATURE_HEADER = 'x-webhook-signature';

export function parseSignatureHeader(header: unknown): ParsedSignature {
  if (header === undefined || header === null || header === '') return { ok: false, reason: 'missing_signature' };
  // Node gives string[] for repeated headers; a repeated signature header is never legitimate.
  if (typeof header !== 'string') return { ok: false, reason: 'malformed_signature' };
  // test() + slice() rather than a capture group: no match array on the hot path.
  if (!SIGNATURE.test(header)) return { ok: false, reason: 'malformed_signature' };
  return { ok: true, hex: header.slice(7) };
}

export function formatSignatureHeader(digest: Uint8Array): string {
  return `sha256=${bytesToHex(digest)}`;
}
