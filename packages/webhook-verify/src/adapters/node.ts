// Node `http` and Express adapter: a middleware that reads the raw body itself (or takes the
// Buffer left by `express.raw()`), verifies it, and refuses to guess when a JSON parser has
// already consumed the stream.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SubmissionCreatedPayload } from '@forms-api/types';
import { createWebhookApi, type ParseOptions } from '../core/api.js';
import { WebhookUsageError } from '../core/errors.js';
import { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, JSON_CONTENT_TYPE, rejectionFor, UnreadableBodyError, UnsupportedContentTypeError } from '../core/policy.js';
import { SIGNATURE_HEADER } from '../core/header.js';
import { nodeBackend } from '../crypto/node.js';

export interface NodeWebhookOptions extends ParseOptions {
  secret: string | readonly string[];
  /** Largest body accepted, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
}

/** What the middleware adds to the request once verified. */
export interface VerifiedWebhookRequest extends IncomingMessage {
  webhook: SubmissionCreatedPayload;
  rawBody: Buffer;
  body?: unknown;
}

type Next = (error?: unknown) => void;

const api = createWebhookApi(nodeBackend);

const CONSUMED_BODY_HINT =
  'The request body was already consumed by a body parser (for example `express.json()`), so the raw bytes the signature covers are gone. Mount the webhook route before the JSON parser, or give it `express.raw({ type: "application/json" })` so that `req.body` is a Buffer.';

async function rawBodyOf(req: IncomingMessage & { body?: unknown }, limit: number): Promise<Buffer> {
  if (Buffer.isBuffer(req.body)) return req.body;
  if (req.body instanceof Uint8Array) return Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength);
  // Express 5 leaves req.body undefined when no parser ran; anything else is parsed data.
  if (req.body !== undefined && !(typeof req.body === 'object' && req.body !== null && Object.keys(req.body).length === 0 && req.readable)) {
    throw new WebhookUsageError('invalid_body', CONSUMED_BODY_HINT);
  }
  if (req.readableEnded || !req.readable) throw new WebhookUsageError('invalid_body', CONSUMED_BODY_HINT);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += chunk.length;
      if (size > limit) {
        req.resume();
        throw new BodyTooLargeError(limit);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    throw new UnreadableBodyError(error);
  }
  return Buffer.concat(chunks, size);
}

/** Verifies a Node request and returns the payload and raw body; throws typed errors. */
export async function verifyNodeRequest(req: IncomingMessage & { body?: unknown }, options: NodeWebhookOptions): Promise<{ payload: SubmissionCreatedPayload; rawBody: Buffer }> {
  const { secret, maxBodyBytes = DEFAULT_MAX_BODY_BYTES, ...parseOptions } = options;
  const contentType = req.headers['content-type'];
  if (!contentType || !JSON_CONTENT_TYPE.test(contentType)) throw new UnsupportedContentTypeError(contentType);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBodyBytes) throw new BodyTooLargeError(maxBodyBytes);
  const rawBody = await rawBodyOf(req, maxBodyBytes);
  const header = req.headers[SIGNATURE_HEADER];
  const payload = await api.parseWebhook(secret, rawBody, Array.isArray(header) ? (header as unknown as string) : header, parseOptions);
  return { payload, rawBody };
}

/**
 * Express (4 or 5) or Connect-style middleware. On success it sets `req.webhook` (the payload) and
 * `req.rawBody`, then calls `next()`. Rejections are answered with the shared status policy as
 * `{ error, message }` JSON; a misconfiguration (a parser that ran first, an empty secret) goes
 * to `next(error)` so it surfaces as a server error instead of a silent 401.
 */
export function webhookMiddleware(options: NodeWebhookOptions) {
  return (req: IncomingMessage, res: ServerResponse, next?: Next): void => {
    verifyNodeRequest(req, options).then(
      ({ payload, rawBody }) => {
        Object.assign(req, { webhook: payload, rawBody });
        if (next) next();
      },
      (error: unknown) => {
        const rejection = rejectionFor(error);
        if (rejection.status === 500 && next) return next(error);
        if (!res.headersSent) {
          res.writeHead(rejection.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: rejection.reason, message: rejection.message }));
        }
      },
    );
  };
}

/** A plain `node:http` request listener that calls `handle` with verified payloads only. */
export function createWebhookListener(
  options: NodeWebhookOptions,
  handle: (payload: SubmissionCreatedPayload, req: VerifiedWebhookRequest, res: ServerResponse) => void | Promise<void>,
) {
  const middleware = webhookMiddleware(options);
  return (req: IncomingMessage, res: ServerResponse): void => {
    middleware(req, res, (error?: unknown) => {
      if (error) {
        const rejection = rejectionFor(error);
        res.writeHead(rejection.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: rejection.reason, message: rejection.message }));
        return;
      }
      const verified = req as VerifiedWebhookRequest;
      Promise.resolve(handle(verified.webhook, verified, res)).catch((handlerError: unknown) => {
        if (!res.headersSent) res.writeHead(500).end();
        res.destroy(handlerError instanceof Error ? handlerError : undefined);
      });
    });
  };
}
