// Reads a Fetch `Request` body once, as bytes, within a limit: a chunked body with no
// Content-Length cannot make the receiver buffer more than `limit` bytes.
import { WebhookRequestError, WebhookUsageError } from '../core/errors.js';

const CONSUMED_BODY_HINT =
  'The request body was already read (for example `await c.req.json()` in a Hono middleware, or `await request.json()`), so the raw bytes the signature covers are gone. Verify before anything reads the body: mount the webhook route ahead of such middleware, or hand this function `request.clone()` taken before the body is read.';

export async function readRequestBody(request: Request, limit: number): Promise<Uint8Array> {
  if (request.bodyUsed || request.body?.locked) throw new WebhookUsageError('invalid_body', CONSUMED_BODY_HINT);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw new WebhookRequestError('body_too_large', { limit });
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof WebhookRequestError) throw error;
    throw new WebhookRequestError('unreadable_body', { cause: error });
  }
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
