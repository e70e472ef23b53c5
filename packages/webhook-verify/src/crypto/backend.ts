// What the shared core needs from a crypto implementation: an HMAC-SHA256 key prepared once
// per secret, able to sign a body and to check a digest in constant time.
export interface PreparedKey {
  sign(body: Uint8Array): Promise<Uint8Array>;
  /** Constant-time comparison of `digest` (32 bytes) with the HMAC of `body`. */
  verify(body: Uint8Array, digest: Uint8Array): Promise<boolean>;
}

export interface HmacBackend {
  prepare(secret: string): PreparedKey;
}
