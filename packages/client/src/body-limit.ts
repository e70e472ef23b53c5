// Caps how many bytes of a response body the client will read: past the cap the body errors
// with the given FormsApiError and the connection is released, so an endless or oversized body
// (a broken proxy, a wrong host, a decompression bomb) costs at most `max` bytes, not the timeout.
// The counting is the one bounded reader's (@forms-api/internal/bounded-body): `readBounded` for
// an answer the client reads itself, `cappedStream` for a body handed on unread.
import { cappedStream, readBounded, webStreamSource } from '@forms-api/internal/bounded-body';

/** Throws (and frees the connection) when Content-Length already says more than `max`. */
export function checkDeclaredLength(response: Response, max: number, tooLarge: () => Error): void {
  if (max === Infinity || response.body === null) return;
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > max) {
    response.body.cancel().catch(() => {});
    throw tooLarge();
  }
}

/** The response with its body capped at `max` bytes, for a caller given the stream. */
export function limitBody(response: Response, max: number, tooLarge: () => Error): Response {
  const body = response.body;
  if (body === null || max === Infinity) return response;
  // Erroring the stream cancels the source, which closes the connection.
  return withBody(response, cappedStream(body, max, tooLarge));
}

/** The response's status, headers and URL with another body (`null` for none). */
export function withBody(response: Response, body: BodyInit | null): Response {
  const rebuilt = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A Response built by hand has no URL; the error messages and callers read the real one.
  Object.defineProperties(rebuilt, { url: { value: response.url }, redirected: { value: response.redirected } });
  return rebuilt;
}

const utf8 = new TextDecoder();

/**
 * The whole body as text (UTF-8, as `Response.text()` decodes it), at most `max` bytes: a
 * Content-Length over the cap fails before reading; otherwise bytes are counted as they arrive.
 * A body that breaks rejects with the runtime's error, as `text()` would.
 */
export async function readCapped(response: Response, max: number, tooLarge: () => Error): Promise<string> {
  if (response.body === null || response.status === 204) return '';
  checkDeclaredLength(response, max, tooLarge);
  const read = await readBounded(webStreamSource(response.body), { limit: max, overLimit: 'fail' });
  if (read.ok) return utf8.decode(read.value.bytes);
  if (read.error.kind === 'unreadable') throw read.error.cause;
  // With no deadline, signal or reservation, the limit is the only other end of a read.
  throw tooLarge();
}
