// Fetch API adapter (Hono, Next.js route handlers, Cloudflare Workers, Deno, Bun): reads the
// request body once as bytes, verifies it, and either returns the payload or a ready Response.
import type { SubmissionCreatedPayload } from '@forms-api/types';
import { createWebhookApi, type ParseOptions } from '../core/api.js';
import { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, JSON_CONTENT_TYPE, rejectionFor, UnreadableBodyError, UnsupportedContentTypeError, type Rejection } from '../core/policy.js';
import { SIGNATURE_HEADER } from '../core/header.js';
import { webBackend } from '../crypto/web.js';

export interface FetchWebhookOptions extends ParseOptions {
  secret: string | readonly string[];
  /** Largest body accepted, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
}

export type FetchWebhookResult =
  | { ok: true; payload: SubmissionCreatedPayload; rawBody: Uint8Array }
  | ({ ok: false; error: unknown; response: Response } & Rejection);

const api = createWebhookApi(webBackend);

/** Verifies a webhook `Request`. Never throws for a bad request: it returns `{ ok: false, response }`. */
export async function verifyWebhookRequest(request: Request, options: FetchWebhookOptions): Promise<FetchWebhookResult> {
  const { secret, maxBodyBytes = DEFAULT_MAX_BODY_BYTES, ...parseOptions } = options;
  try {
    const contentType = request.headers.get('content-type');
    if (!contentType || !JSON_CONTENT_TYPE.test(contentType)) throw new UnsupportedContentTypeError(contentType);
    const declared = Number(request.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBodyBytes) throw new BodyTooLargeError(maxBodyBytes);
    const rawBody = await readBounded(request, maxBodyBytes);
    const payload = await api.parseWebhook(secret, rawBody, request.headers.get(SIGNATURE_HEADER), parseOptions);
    return { ok: true, payload, rawBody };
  } catch (error) {
    const rejection = rejectionFor(error);
    if (rejection.status === 500) throw error;
    const response = new Response(JSON.stringify({ error: rejection.reason, message: rejection.message }), {
      status: rejection.status,
      headers: { 'content-type': 'application/json' },
    });
    return { ok: false, error, response, ...rejection };
  }
}

/**
 * Reads the body once, as bytes, stopping as soon as it passes the limit: a chunked body with no
 * Content-Length cannot make the receiver buffer more than `limit` bytes.
 */
async function readBounded(request: Request, limit: number): Promise<Uint8Array> {
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
        throw new BodyTooLargeError(limit);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    throw new UnreadableBodyError(error);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Wraps a handler so it only ever sees verified payloads; rejections are answered for it. */
export function webhookHandler(
  options: FetchWebhookOptions,
  handle: (payload: SubmissionCreatedPayload, request: Request) => Response | Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const result = await verifyWebhookRequest(request, options);
    return result.ok ? handle(result.payload, request) : result.response;
  };
}
