// Fastify adapter: a plugin that parses application/json bodies as raw Buffers (so the signed
// bytes survive) and verifies them in a preHandler; handlers read `request.webhook`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SubmissionCreatedPayload } from '@forms-api/types';
import { createWebhookApi, type ParseOptions } from '../core/api.js';
import { DEFAULT_MAX_BODY_BYTES, JSON_CONTENT_TYPE, rejectionFor, UnsupportedContentTypeError } from '../core/policy.js';
import { SIGNATURE_HEADER } from '../core/header.js';
import { WebhookUsageError } from '../core/errors.js';
import { nodeBackend } from '../crypto/node.js';

export interface FastifyWebhookOptions extends ParseOptions {
  secret: string | readonly string[];
  /** Largest body accepted, in bytes. Default 1 MiB (answered 413 by Fastify). */
  maxBodyBytes?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified submission.created payload (set by the webhook-verify plugin). */
    webhook?: SubmissionCreatedPayload;
  }
}

const api = createWebhookApi(nodeBackend);

/** A preHandler that verifies `request.body` (a Buffer from the raw parser) and sets `request.webhook`. */
export function webhookPreHandler(options: FastifyWebhookOptions) {
  const { secret, maxBodyBytes: _limit, ...parseOptions } = options;
  const reject = async (reply: FastifyReply, error: unknown) => {
    const rejection = rejectionFor(error);
    if (rejection.status === 500) throw error;
    await reply.code(rejection.status).type('application/json').send({ error: rejection.reason, message: rejection.message });
  };
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const contentType = request.headers['content-type'];
    if (!contentType || !JSON_CONTENT_TYPE.test(contentType)) return reject(reply, new UnsupportedContentTypeError(contentType));
    if (!Buffer.isBuffer(request.body)) {
      throw new WebhookUsageError(
        'invalid_body',
        'The webhook body reached the preHandler already parsed. Register the webhook-verify plugin (or its raw application/json parser) in the scope of the webhook route.',
      );
    }
    try {
      request.webhook = await api.parseWebhook(secret, request.body, request.headers[SIGNATURE_HEADER] as string | undefined, parseOptions);
    } catch (error) {
      await reject(reply, error);
    }
  };
}

/**
 * Register it inside the (encapsulated) scope that holds the webhook routes:
 * `app.register(async (scope) => { await scope.register(webhookVerify, { secret }); scope.post('/hook', handler) })`.
 * It applies to that scope only; JSON routes elsewhere keep Fastify's JSON parser.
 */
export async function webhookVerify(scope: FastifyInstance, options: FastifyWebhookOptions): Promise<void> {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES }, (_request, body, done) => done(null, body));
  scope.addHook('preHandler', webhookPreHandler(options));
}
// Like fastify-plugin: the parser and hook belong to the scope that registers the plugin.
(webhookVerify as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
