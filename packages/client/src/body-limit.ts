// Caps how many bytes of a response body the client will read: past the cap the body errors
// with the given FormsApiError and the connection is released, so an endless or oversized body
// (a broken proxy, a wrong host, a decompression bomb) costs at most `max` bytes, not the timeout.
// The counting is the one bounded reader's (`cappedStream` of @forms-api/internal); here are the
// Response-level rules: a declared length, and when the runtime's own framing makes counting moot.
import { cappedStream } from '@forms-api/internal/bounded-body';

/** Throws (and frees the connection) when Content-Length already says more than `max`. */
export function checkDeclaredLength(response: Response, max: number, tooLarge: () => Error): void {
  if (max === Infinity || response.body === null) return;
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > max) {
    response.body.cancel().catch(() => {});
    throw tooLarge();
  }
}

/**
 * The response with its body capped at `max` bytes, for whoever reads it next (openapi-fetch, or
 * a caller given the stream). `framed` means the body is the wire body of a native fetch, which
 * reads exactly Content-Length bytes: then a declared length (already checked) needs no
 * counting, unless a Content-Encoding may expand it. (Counting every body put `forms.get` at
 * about 2× openapi-fetch alone through cappedStream; through readBounded it added 0.1-0.2× on
 * Node 20 and 0.55 kB gzipped: issue 31's benchmark.)
 */
export function limitBody(response: Response, max: number, framed: boolean, tooLarge: () => Error): Response {
  const body = response.body;
  if (body === null || max === Infinity) return response;
  if (
    framed &&
    response.headers.get('content-length') !== null &&
    (response.headers.get('content-encoding') ?? 'identity') === 'identity'
  )
    return response;
  // Erroring the stream cancels the source, which closes the connection.
  const counted = cappedStream(body, max, tooLarge);
  const limited = new Response(counted, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A Response built by hand has no URL; the error messages and callers read the real one.
  Object.defineProperties(limited, { url: { value: response.url }, redirected: { value: response.redirected } });
  return limited;
}

/**
 * The whole body as text, at most `max` bytes: a Content-Length over the cap fails before
 * reading; otherwise the body is read through `limitBody`, by the runtime alone where its framing
 * bounds it, and counted as it arrives where it does not.
 */
export async function readCapped(
  response: Response,
  max: number,
  framed: boolean,
  tooLarge: () => Error,
): Promise<string> {
  if (response.body === null || response.status === 204) return '';
  checkDeclaredLength(response, max, tooLarge);
  // (readBounded reads a chunked 2 kB answer ~45 µs sooner on loopback than the capped stream, but
  // its deadline, signal and reservation cost 0.5 kB gzipped that the size budget has no room for.)
  return limitBody(response, max, framed, tooLarge).text();
}
