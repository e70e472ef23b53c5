// What the shared core needs from a crypto implementation: an HMAC-SHA256 key prepared once
// per secret, able to sign a body and to check a digest in constant time.
// node:crypto answers synchronously; allowing plain values spares the Node build a promise per
// check on the hot path, where small bodies make that overhead visible.
export interface PreparedKey {
  sign(body: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Constant-time comparison of the digest given as 64 lowercase hex digits with the HMAC of `body`. */
  verify(body: Uint8Array, hex: string): boolean | Promise<boolean>;
}

export interface HmacBackend {
  prepare(secret: string): PreparedKey;
  /**
   * True when `verify(body, hex)` holds only for exactly the 64 lowercase hex digits of the
   * digest, whatever string it is given: matching then proves the header's format, and the
   * core checks the format only to name a failure (that check is ~6% of a 1 KiB verification).
   */
  readonly matchesHexExactly: boolean;
}
