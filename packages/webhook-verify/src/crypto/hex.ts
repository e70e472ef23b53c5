// Lowercase hex encoding and decoding of digests, for the backends and the header formatter.

// Char code of a lowercase hex digit → its value (callers pass digits the header parser vetted).
const NIBBLE = new Uint8Array(128);
for (let i = 0; i < 16; i++) NIBBLE['0123456789abcdef'.charCodeAt(i)] = i;

export function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = (NIBBLE[hex.charCodeAt(2 * i)]! << 4) | NIBBLE[hex.charCodeAt(2 * i + 1)]!;
  return bytes;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX[byte];
  return out;
}
