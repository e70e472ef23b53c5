// Reads the raw body of a Node request (node:http, Express, Fastify's payload stream) within a
// limit, taking what an Express body parser left only when it still holds the exact bytes.
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { WebhookRequestError, WebhookUsageError } from '../core/errors.js';

const CONSUMED_BODY_HINT =
  'The request body was already consumed by a body parser (for example `express.json()`), so the raw bytes the signature covers are gone. Mount the webhook route before the JSON parser, or give it `express.raw({ type: "application/json" })` so that `req.body` is a Buffer.';

/** A request that an Express-style parser may have read already, leaving `body` behind. */
export type NodeRequestLike = Readable & { body?: unknown };

export async function readNodeRequestBody(req: NodeRequestLike, limit: number): Promise<Buffer> {
  const { body } = req;
  if (Buffer.isBuffer(body)) return checkedSize(body, limit);
  if (body instanceof Uint8Array) return checkedSize(Buffer.from(body.buffer, body.byteOffset, body.byteLength), limit);
  // express.text(): the body decoded with its charset; UTF-8 gives back the bytes that were sent.
  if (typeof body === 'string') return checkedSize(Buffer.from(body, 'utf8'), limit);
  // Express 5 leaves req.body undefined when no parser ran, Express 4 an empty object with the stream unread.
  const untouched = body === undefined || (typeof body === 'object' && body !== null && Object.keys(body).length === 0 && req.readable);
  if (!untouched || req.readableEnded || !req.readable) throw new WebhookUsageError('invalid_body', CONSUMED_BODY_HINT);
  return readStream(req, limit);
}

/**
 * Reads a stream to its end, stopping as soon as it passes `limit` bytes. Events rather than
 * `for await`: leaving an async iterator destroys the stream, and with it the socket the 413
 * must be written to; here the rest is drained and discarded instead.
 */
export function readStream(stream: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: WebhookRequestError) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) {
        // A late error of an abandoned stream must not become an unhandled 'error' event.
        stream.on('error', ignore).resume();
        reject(error);
      } else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      size += bytes.length;
      if (size > limit) settle(new WebhookRequestError('body_too_large', { limit }));
      else chunks.push(bytes);
    };
    const onEnd = () => settle();
    const onError = (cause: unknown) => settle(new WebhookRequestError('unreadable_body', { cause }));
    const onClose = () => settle(new WebhookRequestError('unreadable_body', { cause: new Error('The connection closed before the end of the body.') }));
    stream.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

const ignore = () => {};

function checkedSize(body: Buffer, limit: number): Buffer {
  if (body.length > limit) throw new WebhookRequestError('body_too_large', { limit });
  return body;
}
