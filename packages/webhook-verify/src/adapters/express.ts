// Express adapter: the Node middleware, typed for Express. The verified route's handler is given a
// `WebhookRequest` (Express's Request with `webhook` and `rawBody`); Express's own Request type is
// left alone, so no other route appears to have them.
import type { Buffer } from 'node:buffer';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { SubmissionCreatedPayload } from '@forms-api/types';
import { nodeMiddleware, type NodeWebhookOptions, type RouteHandler } from './node-middleware.js';

export { createWebhookListener, verifyNodeRequest, writeRejection } from './node.js';
export type { NodeWebhookOptions, VerifiedWebhook, VerifiedWebhookRequest } from './node.js';

/** The request of a verified webhook route. */
export interface WebhookRequest extends Request {
  /** The verified submission.created payload. */
  webhook: SubmissionCreatedPayload;
  /** The exact bytes that were verified. */
  rawBody: Buffer;
}

/** The handler of a verified webhook route. */
export type WebhookRequestHandler = (req: WebhookRequest, res: Response, next: NextFunction) => unknown;

/**
 * `app.post('/webhooks/forms', webhookMiddleware(options, (req, res) => …))`: verifies the request,
 * then runs the handler with `req.webhook` (the payload) and `req.rawBody`. Without a handler, a
 * middleware that sets both at run time and calls `next()` (the next handler's `req` is then
 * Express's own Request, which does not declare them).
 *
 * Mount it before `express.json()`, or behind `express.raw({ type: 'application/json' })`. Every
 * rejection is answered with `{ error, message }` JSON and reported to `onRejected` (by default a
 * line on stderr); a JSON parser that ran first is answered 500 `invalid_body`, its fix told once.
 * A handler that throws or rejects is answered 500 and logged. With `replayStore`, the claim is
 * given back unless the response ends with a 2xx.
 */
export function webhookMiddleware(options: NodeWebhookOptions, handle?: WebhookRequestHandler): RequestHandler {
  return nodeMiddleware(options, handle as RouteHandler | undefined) as unknown as RequestHandler;
}
