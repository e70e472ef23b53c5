// Reads the raw body of a Node request (node:http, Express, Fastify's payload stream) through the
// one bounded reader, taking what an Express body parser left only when it still holds the exact bytes.
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { nodeStreamSource } from '@forms-api/internal/bounded-body';
import type { BodyLimits } from '../core/body-limits.js';
import { readWithinLimits } from '../core/bounded-body.js';
import { verificationError, WebhookVerifyError } from '../core/errors.js';
import type { ReadBody } from '../core/request.js';

const CONSUMED_BODY_HINT =
  'The request body was already consumed by a body parser (for example `express.json()`), so the raw bytes the signature covers are gone. Mount the webhook route before the JSON parser, or give it `express.raw({ type: "application/json" })` so that `req.body` is a Buffer.';

/** A request that an Express-style parser may have read already, leaving `body` behind. */
export type NodeRequestLike = Readable & { body?: unknown };

export async function readNodeRequestBody(req: NodeRequestLike, limits: BodyLimits): Promise<ReadBody<Buffer>> {
  const { body } = req;
  if (Buffer.isBuffer(body)) return fromParser(body, limits.maxBytes);
  if (body instanceof Uint8Array)
    return fromParser(Buffer.from(body.buffer, body.byteOffset, body.byteLength), limits.maxBytes);
  // express.text(): the body decoded with its charset; UTF-8 gives back the bytes that were sent.
  if (typeof body === 'string') return fromParser(Buffer.from(body, 'utf8'), limits.maxBytes);
  // Express 5 leaves req.body undefined when no parser ran, Express 4 an empty object with the stream unread.
  const untouched =
    body === undefined || (typeof body === 'object' && body !== null && Object.keys(body).length === 0 && req.readable);
  if (!untouched || req.readableEnded || !req.readable)
    throw new WebhookVerifyError('invalid_body', CONSUMED_BODY_HINT);
  return { bytes: await readStream(req, limits), readBy: 'adapter' };
}

/**
 * Reads a stream to its end through the bounded reader. A stream stopped early is paused, not
 * drained: the adapter answers with `Connection: close`, so a client that stalls or keeps sending
 * loses its connection instead of holding it open while the rest is read and discarded.
 */
export async function readStream(stream: Readable, limits: BodyLimits): Promise<Buffer> {
  const bytes = await readWithinLimits(nodeStreamSource(stream), limits);
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function fromParser(body: Buffer, limit: number): ReadBody<Buffer> {
  if (body.length > limit) throw verificationError('body_too_large', { context: { limit } });
  return { bytes: body, readBy: 'body_parser' };
}
