// Node `http` and Express adapter: a middleware that reads the raw body itself (or takes the
// Buffer or string an Express parser left), verifies it, and refuses to guess when a JSON parser
// has already consumed the stream.
import type { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SubmissionCreatedPayload } from '@forms-api/types';
import { nodeApi } from '../builds/node.js';
import { HANDLER_FAILED, rejectionFor } from '../core/policy.js';
import {
  createRequestVerifier,
  type RequestVerifier,
  type VerifiedWebhook,
  type WebhookRequestOptions,
} from '../core/request.js';
import { SIGNATURE_HEADER } from '../core/header.js';
import { readNodeRequestBody, type NodeRequestLike } from './node-body.js';
import { releaseUnlessAcknowledged, writeRejection } from './node-response.js';

export { writeRejection } from './node-response.js';
export type { VerifiedWebhook } from '../core/request.js';

export type NodeWebhookOptions = WebhookRequestOptions;

/** A request the middleware verified: what `createWebhookListener` hands its handler. */
export interface VerifiedWebhookRequest extends IncomingMessage {
  webhook: SubmissionCreatedPayload;
  rawBody: Buffer;
  body?: unknown;
}

declare global {
  // Express's request type, augmented as Fastify's is: set by `webhookMiddleware`. Typed as
  // present so handlers behind the middleware read `req.webhook.form_title` without a cast; on
  // routes without the middleware it is undefined at run time.
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express declares Request in a global namespace; only a namespace augments it
  namespace Express {
    interface Request {
      /** The verified submission.created payload (set by `webhookMiddleware` from `@forms-api/webhook-verify/express`). */
      webhook: SubmissionCreatedPayload;
      /** The exact bytes that were verified (set by `webhookMiddleware`). */
      rawBody: Buffer;
    }
  }
}

type Next = (error?: unknown) => unknown;

function nodeRequestVerifier(options: NodeWebhookOptions): (req: IncomingMessage) => Promise<VerifiedWebhook<Buffer>> {
  const verify: RequestVerifier = createRequestVerifier(nodeApi.createReceiver, options);
  return (req) =>
    verify({
      contentType: req.headers['content-type'],
      contentLength: req.headers['content-length'],
      signature: req.headers[SIGNATURE_HEADER],
      readBody: (limits) => readNodeRequestBody(req as NodeRequestLike, limits),
    });
}

/**
 * Checks the content type, reads the raw body within `maxBodyBytes` (or takes what
 * `express.raw()`/`express.text()` left), verifies the signature and parses and validates the
 * payload; with `replayStore` it then claims the delivery. Throws a `WebhookVerifyError`; answer
 * it with `rejectionFor` and `writeRejection`, and call `release()` if the delivery is not
 * processed.
 */
export function verifyNodeRequest(req: IncomingMessage, options: NodeWebhookOptions): Promise<VerifiedWebhook<Buffer>> {
  return nodeRequestVerifier(options)(req);
}

/**
 * Express (4 or 5) or Connect-style middleware. On success it sets `req.webhook` (the payload) and
 * `req.rawBody`, then calls `next()`. Rejections are answered with the shared status policy as
 * `{ error, message }` JSON; a misconfiguration (a parser that ran first, an empty secret) goes
 * to `next(error)` so it surfaces as a server error instead of a silent 401. With `replayStore`,
 * the claim is given back unless the response ends with a 2xx.
 */
export function webhookMiddleware(options: NodeWebhookOptions) {
  const verify = nodeRequestVerifier(options);
  return (req: IncomingMessage, res: ServerResponse, next?: Next): void => {
    verify(req).then(
      ({ payload, rawBody, release }) => {
        Object.assign(req, { webhook: payload, rawBody });
        releaseUnlessAcknowledged(res, release);
        if (next) callNext(next, undefined, res);
      },
      (error: unknown) => {
        const rejection = rejectionFor(error, options);
        if (rejection.status === 500 && next) return callNext(next, error, res);
        writeRejection(res, rejection);
      },
    );
  };
}

/**
 * Runs the next handler. Express catches its handlers' errors, but plain `node:http` code or a
 * minimal router may let one throw (or reject) out of `next`: inside this promise chain that would
 * become an unhandled rejection and end the process, so it is answered 500 and logged instead.
 */
function callNext(next: Next, error: unknown, res: ServerResponse): void {
  const failed = (handlerError: unknown) => {
    console.error(
      '@forms-api/webhook-verify: the handler after webhookMiddleware failed; answering 500.',
      handlerError,
    );
    if (res.headersSent) res.destroy();
    else writeRejection(res, HANDLER_FAILED);
  };
  try {
    const result = error === undefined ? next() : next(error);
    if (typeof (result as Promise<unknown> | undefined)?.then === 'function')
      (result as Promise<unknown>).then(undefined, failed);
  } catch (handlerError) {
    failed(handlerError);
  }
}

/**
 * A plain `node:http` request listener that calls `handle` with verified payloads only. A handler
 * that throws or rejects is answered 500 (and logged): it never takes the process down.
 */
export function createWebhookListener(
  options: NodeWebhookOptions,
  handle: (payload: SubmissionCreatedPayload, req: VerifiedWebhookRequest, res: ServerResponse) => void | Promise<void>,
) {
  const verify = nodeRequestVerifier(options);
  return (req: IncomingMessage, res: ServerResponse): void => {
    verify(req).then(
      async ({ payload, rawBody, release }) => {
        const verified = Object.assign(req, { webhook: payload, rawBody }) as VerifiedWebhookRequest;
        releaseUnlessAcknowledged(res, release);
        try {
          await handle(payload, verified, res);
        } catch (handlerError) {
          console.error('@forms-api/webhook-verify: the webhook handler failed; answering 500.', handlerError);
          if (res.headersSent) res.destroy();
          else writeRejection(res, HANDLER_FAILED);
        }
      },
      (error: unknown) => writeRejection(res, rejectionFor(error, options)),
    );
  };
}
