// The sizes the sandbox accepts, in one place (the README lists them).

/** The largest request body read; a larger one is answered 413 without being read. */
export const REQUEST_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The deepest nesting of arrays and objects a JSON body may have (the body itself is level 1):
 * PHP's json_decode default, which the service's request decoding uses, so nothing the service can
 * read is refused; anything deeper is refused with a 422 before it is stored or walked.
 */
export const REQUEST_BODY_MAX_DEPTH = 512;
