// Caps how many bytes of a response body the client will read: past the cap the body errors
// with the given FormsApiError and the connection is released, so an endless or oversized body
// (a broken proxy, a wrong host, a decompression bomb) costs at most `max` bytes, not the timeout.
import type { FormsApiError } from './errors.js';

/**
 * The response with its body capped at `max` bytes. Throws at once when Content-Length already
 * says more. `framed` means the body is the wire body of a native fetch, which reads exactly
 * Content-Length bytes: then a declared length within the cap needs no counting, unless a
 * Content-Encoding may expand it.
 */
export function limitBody(response: Response, max: number, framed: boolean, tooLarge: () => FormsApiError): Response {
  const body = response.body;
  if (body === null || max === Infinity) return response;
  const declared = response.headers.get('content-length');
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  if (declared !== null && Number(declared) > max) {
    body.cancel().catch(() => {});
    throw tooLarge();
  }
  if (framed && declared !== null && !encoded) return response;
  let seen = 0;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        // Erroring the transform cancels the source, which closes the connection.
        if (seen > max) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  const limited = new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  // A Response built by hand has no URL; the error messages and callers read the real one.
  Object.defineProperties(limited, { url: { value: response.url }, redirected: { value: response.redirected } });
  return limited;
}
