// Reads a Fetch `Request` body once, as bytes, through the one bounded reader: a chunked body with
// no Content-Length, a stalled one, or many at once cannot make the receiver hold more than its limits.
import { webStreamSource } from '@forms-api/internal/bounded-body';
import type { BodyLimits } from '../core/body-limits.js';
import { readWithinLimits } from '../core/bounded-body.js';
import { WebhookVerifyError } from '../core/errors.js';
import type { ReadBody } from '../core/request.js';

const CONSUMED_BODY_HINT =
  'The request body was already read (for example `await c.req.json()` in a Hono middleware, or `await request.json()`), so the raw bytes the signature covers are gone. Verify before anything reads the body: mount the webhook route ahead of such middleware, or hand this function `request.clone()` taken before the body is read.';

export async function readRequestBody(request: Request, limits: BodyLimits): Promise<ReadBody<Uint8Array>> {
  if (request.bodyUsed || request.body?.locked) throw new WebhookVerifyError('invalid_body', CONSUMED_BODY_HINT);
  const bytes = request.body ? await readWithinLimits(webStreamSource(request.body), limits) : new Uint8Array(0);
  return { bytes, readBy: 'adapter' };
}
