// The one parser of the X-Webhook-Signature header, shared by every build: exactly `sha256=`
// and 64 lowercase hex digits, nothing else (no whitespace, no uppercase, no other scheme).
import { bytesToHex } from '../crypto/hex.js';

const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/** `hex` is the 64 lowercase hex digits of the digest; each backend decodes it its own fastest way. */
export type ParsedSignature =
  { ok: true; hex: string } | { ok: false; reason: 'missing_signature' | 'malformed_signature' };

export const SIGNATURE_HEADER = 'x-webhook-signature';

/** Why `header` is not a signature header, or null when it is one. Allocates nothing: the hot path uses it. */
export function signatureProblem(header: unknown): 'missing_signature' | 'malformed_signature' | null {
  if (header === undefined || header === null || header === '') return 'missing_signature';
  // Node gives string[] for repeated headers; a repeated signature header is never legitimate.
  if (typeof header !== 'string') return 'malformed_signature';
  // test() rather than a capture group: no match array on the hot path.
  return SIGNATURE.test(header) ? null : 'malformed_signature';
}

/** `sha256=` and 71 characters in all: the shape a well-formed header has, checked without its digits. */
export function hasSignatureShape(header: unknown): header is string {
  return typeof header === 'string' && header.length === 71 && header.startsWith('sha256=');
}

export function parseSignatureHeader(header: unknown): ParsedSignature {
  const problem = signatureProblem(header);
  return problem ? { ok: false, reason: problem } : { ok: true, hex: (header as string).slice(7) };
}

export function formatSignatureHeader(digest: Uint8Array): string {
  return `sha256=${bytesToHex(digest)}`;
}
