// Turns the accepted raw-body types into the exact bytes to hash, and refuses anything that
// looks like a parsed body: hashing a re-serialised object is the classic verification bug.
import { WebhookVerifyError } from './errors.js';

/** The raw request body: the exact bytes received, or a string (hashed as UTF-8). */
export type RawBody = string | Uint8Array | ArrayBuffer | ArrayBufferView;

const encoder = new TextEncoder();

export function toBodyBytes(rawBody: unknown): Uint8Array {
  if (typeof rawBody === 'string') return encoder.encode(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  if (ArrayBuffer.isView(rawBody)) return new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  if (rawBody === null || rawBody === undefined) {
    throw new WebhookVerifyError(
      'invalid_body',
      'The raw request body is missing. Pass the body exactly as received (a Buffer, Uint8Array, ArrayBuffer or string); with Express use `express.raw({ type: "application/json" })` on the webhook route.',
    );
  }
  throw new WebhookVerifyError(
    'invalid_body',
    `Pass the raw request body, not parsed JSON (got ${describe(rawBody)}). The signature covers the exact bytes the service sent; re-serialising a parsed object changes them. With Express use \`express.raw({ type: "application/json" })\`; with the Fetch API use \`await request.arrayBuffer()\`.`,
  );
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object')
    return `an object${value && value.constructor && value.constructor !== Object ? ` (${value.constructor.name})` : ''}`;
  return `a ${typeof value}`;
}
