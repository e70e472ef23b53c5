// Fastify adapter: a plugin that hands the webhook scope's request bodies over unread, then
// verifies them in a preHandler through the shared pipeline (so a 413 or 415 has the same
// `{ error, message }` body as every adapter). A route's handler wrapped in `webhookRoute` is given
// a typed `request.webhook`; Fastify's own FastifyRequest is left alone, so no other route appears
// to have it.
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
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

const FASTIFY_REGISTER_OPTIONS = ['prefix', 'logLevel', 'logSerializers'];

/** The request of a route verified by the plugin. */
export interface FastifyWebhookRequest extends FastifyRequest {
  /** The verified submission.created payload. */
  webhook: SubmissionCreatedPayload;
  /** The exact bytes that were verified. */
  body: Buffer;
}

/** The handler of a verified webhook route. */
export type FastifyWebhookHandler = (
  this: FastifyInstance,
  request: FastifyWebhookRequest,
  reply: FastifyReply,
) => unknown;

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
  // Fastify hands a plugin the object given to `register`, its own options included.
  const verify = createRequestVerifier(nodeApi.createReceiver, options, FASTIFY_REGISTER_OPTIONS);
  const report = rejectionReporter(options);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
    try {
      const { payload, rawBody, release } = await verify({
        contentType: request.headers['content-type'],
        contentLength: request.headers['content-length'],
        signature: request.headers[SIGNATURE_HEADER],
        readBody: (limits) => readFastifyBody(request.body, limits),
      });
      // Set at run time only: the type is given to the handlers wrapped in webhookRoute.
      Object.assign(request, { body: rawBody, webhook: payload });
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

/**
 * `scope.post('/hook', webhookRoute(async (request, reply) => …))` in the plugin's scope: the handler
 * is given `request.webhook` (the payload) and `request.body` (the raw bytes), typed. A route
 * outside the plugin's scope throws `invalid_option` on its first request (Fastify answers 500)
 * rather than handing the handler an `undefined` payload.
 */
export function webhookRoute(handler: FastifyWebhookHandler): RouteHandlerMethod {
  return function verifiedRoute(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    if ((request as Partial<FastifyWebhookRequest>).webhook === undefined)
      throw new WebhookVerifyError(
        'invalid_option',
        `The route ${request.method} ${request.routeOptions.url ?? ''} is wrapped in webhookRoute but the webhookVerify plugin did not verify its request: register the plugin in the scope that holds the route (app.register(async (scope) => { await scope.register(webhookVerify, options); scope.post(path, webhookRoute(handler)) })).`,
        { context: { option: 'webhookRoute' } },
      );
    return handler.call(this, request as FastifyWebhookRequest, reply);
  } as RouteHandlerMethod;
}
