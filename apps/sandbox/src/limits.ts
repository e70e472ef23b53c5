// The sizes the sandbox accepts, in one place (the README lists them).

/** The largest request body read; a larger one is answered 413 without being read. */
export const REQUEST_BODY_LIMIT_BYTES = 1024 * 1024;
