// The Node middleware written once, for `/node` (Connect-style, `node:http`) and `/express` (typed
// for Express): verify, then run the next handler or the route's own; answer every rejection with
// the shared JSON, report it, and keep a handler's failure from ending the process.
import type { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeApi } from '../builds/node.js';
import { SIGNATURE_HEADER } from '../core/header.js';
import { HANDLER_FAILED, rejectionFor } from '../core/policy.js';
import { rejectionReporter } from '../core/rejection-log.js';
import { createRequestVerifier, type VerifiedWebhook, type WebhookRequestOptions } from '../core/request.js';
import { readNodeRequestBody, type NodeRequestLike } from './node-body.js';
import { releaseUnlessAcknowledged, writeRejection } from './node-response.js';

export type NodeWebhookOptions = WebhookRequestOptions;

export type Next = (error?: unknown) => unknown;

/** A route handler behind the middleware: run with the verified request (`webhook` and `rawBody` set). */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, next: Next) => unknown;

export function nodeRequestVerifier(
  options: NodeWebhookOptions,
): (req: IncomingMessage) => Promise<VerifiedWebhook<Buffer>> {
  const verify = createRequestVerifier(nodeApi.createReceiver, options);
  return (req) =>
    verify({
      contentType: req.headers['content-type'],
      contentLength: req.headers['content-length'],
      signature: req.headers[SIGNATURE_HEADER],
      readBody: (limits) => readNodeRequestBody(req as NodeRequestLike, limits),
    });
}

/**
 * On success sets `req.webhook` and `req.rawBody`, then runs `handle` (or `next()` without one).
 * Every rejection is answered with the shared JSON and reported, a misconfiguration (a body parser
 * that ran first) included: a framework's error page (Express's is HTML with a stack trace) would
 * end up in the service's event log. Only an unexpected error goes to `next(error)`, for the
 * application's own error handling.
 */
export function nodeMiddleware(options: NodeWebhookOptions, handle?: RouteHandler) {
  const verify = nodeRequestVerifier(options);
  const report = rejectionReporter(options);
  return (req: IncomingMessage, res: ServerResponse, next?: Next): void => {
    verify(req).then(
      ({ payload, rawBody, release }) => {
        Object.assign(req, { webhook: payload, rawBody });
        releaseUnlessAcknowledged(res, release);
        const proceed = next ?? (() => {});
        runGuarded(handle ? () => handle(req, res, proceed) : () => next?.(), res);
      },
      (error: unknown) => {
        const rejection = rejectionFor(error, options);
        if (rejection.reason === 'internal_error' && next) return runGuarded(() => next(error), res);
        report(rejection, error);
        writeRejection(res, rejection);
      },
    );
  };
}

/**
 * Runs the next handler. Express catches its handlers' errors, but not those of a handler run from
 * here, and plain `node:http` code or a minimal router may let one throw (or reject) out of `next`:
 * inside this promise chain that would become an unhandled rejection and end the process, so it is
 * answered 500 and logged instead.
 */
function runGuarded(run: () => unknown, res: ServerResponse): void {
  const failed = (handlerError: unknown) => {
    console.error(
      '@forms-api/webhook-verify: the handler after webhookMiddleware failed; answering 500.',
      handlerError,
    );
    if (res.headersSent) res.destroy();
    else writeRejection(res, HANDLER_FAILED);
  };
  try {
    const result = run();
    if (typeof (result as Promise<unknown> | undefined)?.then === 'function')
      (result as Promise<unknown>).then(undefined, failed);
  } catch (handlerError) {
    failed(handlerError);
  }
}
