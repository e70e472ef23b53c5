// Node `http` and Connect-style adapter: a middleware that reads the raw body itself (or takes the
// Buffer or string a body parser left), verifies it, and refuses to guess when a JSON parser has
// already consumed the stream; a listener for plain `node:http`. `/express` types the same for Express.
import type { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SubmissionCreatedPayload } from '@forms-api/types';
import { HANDLER_FAILED, rejectionFor } from '../core/policy.js';
import { rejectionReporter } from '../core/rejection-log.js';
import type { VerifiedWebhook } from '../core/request.js';
import { nodeMiddleware, nodeRequestVerifier, type Next, type NodeWebhookOptions } from './node-middleware.js';
import { releaseUnlessAcknowledged, writeRejection } from './node-response.js';

export { writeRejection } from './node-response.js';
export type { NodeWebhookOptions } from './node-middleware.js';
export type { VerifiedWebhook } from '../core/request.js';

/** A request the middleware verified: what `createWebhookListener` hands its handler. */
export interface VerifiedWebhookRequest extends IncomingMessage {
  webhook: SubmissionCreatedPayload;
  rawBody: Buffer;
  body?: unknown;
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
 * Connect-style middleware (for Express, prefer `/express`, whose route handler is typed). On
 * success it sets `req.webhook` (the payload) and `req.rawBody`, then calls `next()`. Every
 * rejection, a misconfiguration (a JSON parser that ran first) included, is answered with the
 * shared status policy as `{ error, message }` JSON and reported to `onRejected`; only an
 * unexpected error goes to `next(error)`. With `replayStore`, the claim is given back unless the
 * response ends with a 2xx.
 */
export function webhookMiddleware(
  options: NodeWebhookOptions,
): (req: IncomingMessage, res: ServerResponse, next?: Next) => void {
  return nodeMiddleware(options);
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
  const report = rejectionReporter(options);
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
      (error: unknown) => {
        const rejection = rejectionFor(error, options);
        report(rejection, error);
        writeRejection(res, rejection);
      },
    );
  };
}
