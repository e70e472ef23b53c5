// Fastify adapter: a plugin that hands the webhook scope's request bodies over unread, then
// verifies them in a preHandler through the shared pipeline (so a 413 or 415 has the same
// `{ error, message }` body as every adapter); handlers read `request.webhook`.
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SubmissionCreatedPayload } from '@forms-api/types';
import { nodeApi } from '../builds/node.js';
import { WebhookVerifyError } from '../core/errors.js';
import { SIGNATURE_HEADER } from '../core/header.js';
import type { BodyLimits } from '../core/body-limits.js';
import { rejectionBody, rejectionFor, rejectionHeaders } from '../core/policy.js';
import { rejectionReporter } from '../core/rejection-log.js';
import { createRequestVerifier, type ReadBody, type WebhookRequestOptions } from '../core/request.js';
import { readStream } from './node-body.js';
import { releaseUnlessAcknowledged, unreadBody } from './node-response.js';

export type FastifyWebhookOptions = WebhookRequestOptions;

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified submission.created payload (set by the webhook-verify plugin; undefined on routes outside its scope). */
    webhook: SubmissionCreatedPayload;
  }
}

function isReadable(body: unknown): body is Readable {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Readable).on === 'function' &&
    typeof (body as Readable).resume === 'function'
  );
}

async function readFastifyBody(body: unknown, limits: BodyLimits): Promise<ReadBody<Buffer>> {
  if (isReadable(body)) return { bytes: await readStream(body, limits), readBy: 'adapter' };
  if (Buffer.isBuffer(body)) return { bytes: body, readBy: 'body_parser' };
  throw new WebhookVerifyError(
    'invalid_body',
    "The webhook body reached the preHandler already parsed. Register the webhook-verify plugin in the scope of the webhook route (it replaces that scope's body parsers), or give the route a parser that keeps the body as a Buffer.",
  );
}

/**
 * A preHandler that verifies the body (the unread stream the plugin's parser passes on, or a
 * Buffer from your own raw parser), sets `request.webhook` and `request.body` to the raw bytes.
 */
export function webhookPreHandler(options: FastifyWebhookOptions) {
  const verify = createRequestVerifier(nodeApi.createReceiver, options);
  const report = rejectionReporter(options);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
    try {
      const { payload, rawBody, release } = await verify({
        contentType: request.headers['content-type'],
        contentLength: request.headers['content-length'],
        signature: request.headers[SIGNATURE_HEADER],
        readBody: (limits) => readFastifyBody(request.body, limits),
      });
      request.body = rawBody;
      request.webhook = payload;
      releaseUnlessAcknowledged(reply.raw, release);
    } catch (error) {
      const rejection = rejectionFor(error, options);
      // Fastify's error handler answers a 500 and has the error; a misconfiguration's fix is told too.
      if (rejection.reason !== 'internal_error') report(rejection, error);
      if (rejection.status === 500) throw error;
      reply.code(rejection.status).headers(rejectionHeaders(rejection));
      // A body cut off at a limit, a deadline or the budget: close rather than drain the rest.
      if (unreadBody(reply.raw)) reply.header('connection', 'close');
      return reply.send(rejectionBody(rejection));
    }
  };
}

/**
 * Register it inside the (encapsulated) scope that holds the webhook routes:
 * `app.register(async (scope) => { await scope.register(webhookVerify, { secret }); scope.post('/hook', handler) })`.
 * It applies to that scope only: there every body is passed on unread and verified (so the size
 * limit and the content type are judged by this package); routes elsewhere keep Fastify's parsers.
 */
export async function webhookVerify(scope: FastifyInstance, options: FastifyWebhookOptions): Promise<void> {
  const preHandler = webhookPreHandler(options);
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  scope.addHook('preHandler', preHandler);
}
// Like fastify-plugin: the parser and hook belong to the scope that registers the plugin.
(webhookVerify as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
