// The suite's bounds on what a tenant sends: a leaf module, so the clients and the webhook
// receiver share them without importing each other.

/**
 * The most bytes the suite reads of one response body. Real pages are well under a megabyte; past
 * this the tenant is broken (or hostile: an endless body), and reading on would only exhaust memory.
 */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** How long one send of a request may take, headers and body (waits for the rate limit are not part of it). */
export const REQUEST_TIMEOUT_MS = 20_000;
