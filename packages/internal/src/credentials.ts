// What looks like a credential, by name or by value: the one rule for every place the toolkit
// masks what it shows (the client's error headers and URLs, the inbox's stored headers). Matched
// as fragments, not a list of names, so a custom header or parameter (`x-auth`, `client_secret`,
// `X-Amz-Security-Token`) is caught too: a false positive costs a value in a log, a miss a leak.

/** What stands where a credential was, in every place the toolkit masks one. */
export const REDACTED = '[REDACTED]';

/** A header or query parameter name that carries a credential, anywhere in it, case-insensitively. */
export const CREDENTIAL_NAME =
  /auth|cookie|token|secret|pass|pwd|sig|key|cred|session|sess|sid|jwt|bearer|private|otp|nonce|ticket|hmac|api|code/i;

/** A value that is a credential whatever its name: an authorization scheme, or a JWT. */
export const CREDENTIAL_VALUE = /^\s*(bearer|basic|digest|token|hmac|apikey|negotiate)\s|^\s*eyJ[\w-]+\.[\w-]+/i;

/** Whether a header's value must not be shown: its name or its value looks like a credential. */
export function isCredentialHeader(name: string, value: string): boolean {
  return CREDENTIAL_NAME.test(name) || CREDENTIAL_VALUE.test(value);
}
