// How the Node adapters answer: a rejection as `{ error, message }` JSON, and the replay claim
// given back unless the receiver answered 2xx.
import type { ServerResponse } from 'node:http';
import type { ReleaseClaim } from '../core/api.js';
import { rejectionBody, rejectionHeaders, type Rejection } from '../core/policy.js';
import { acknowledges } from '../core/request.js';

/**
 * Writes a rejection as the shared `{ error, message }` JSON body, unless a response was already
 * started. When the request's body was not read to its end (cut off at a limit, a deadline or the
 * budget), the connection is closed after the answer rather than kept to drain the rest.
 */
export function writeRejection(res: ServerResponse, rejection: Rejection): void {
  if (res.headersSent) return;
  const headers = rejectionHeaders(rejection);
  if (unreadBody(res)) headers.connection = 'close';
  res.writeHead(rejection.status, headers);
  res.end(JSON.stringify(rejectionBody(rejection)));
}

/** True when the request this response answers still has body bytes no one read. */
export function unreadBody(res: ServerResponse): boolean {
  const req = (res as { req?: { readableEnded?: boolean; complete?: boolean } }).req;
  return req !== undefined && req.readableEnded === false && req.complete === false;
}

/**
 * Keeps the claim only if the response finished with a 2xx: an error handler's 500, a 4xx, or a
 * connection closed before the end all mean the sender will retry. A release that fails has no
 * caller left to throw to, so it is reported as a process warning rather than lost.
 */
export function releaseUnlessAcknowledged(res: ServerResponse, release: ReleaseClaim): void {
  res.once('close', () => {
    if (res.writableFinished && acknowledges(res.statusCode)) return;
    release().catch((error: unknown) => {
      process.emitWarning(
        `@forms-api/webhook-verify: a replay claim could not be released, so the retry of this delivery will be refused as replayed until it expires (${error instanceof Error ? error.message : String(error)}).`,
        'WebhookReplayReleaseWarning',
      );
    });
  });
}
