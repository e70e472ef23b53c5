// How much of a tenant's answer the suite reads: a leaf module, so the clients and the webhook
// receiver share the bound without importing each other.

/**
 * The most bytes the suite reads of one response body. Real pages are well under a megabyte; past
 * this the tenant is broken (or hostile: an endless body), and reading on would only exhaust memory.
 */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
