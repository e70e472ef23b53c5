// Fastify receivers: a plugin that adds the webhook route (raw body parser and verification scoped
// to it), stores each delivery in the inbox and answers 202, 503 when Redis cannot take it.
import type { FastifyInstance } from 'fastify';
import { webhookRoute } from '@forms-api/webhook-verify/fastify';
import { answerDelivery, answerHealth } from '../answers.js';
import type { Inbox } from '../inbox.js';
import { withinFastifyReceive } from '../telemetry/fastify-tracing.js';
import { answerMetrics } from '../telemetry/metrics.js';
import { fastifyDelivery, receiveConfigOf, registerFastifyVerification } from '../verification.js';

export interface FastifyInboxOptions {
  inbox: Inbox;
  /** The webhook route. Default `/webhooks/forms`. */
  path?: string;
  /** Also serve a health check here (200 when Redis answers, 503 when not). */
  healthPath?: string;
  /** Also serve this process's metrics here, in Prometheus text format. */
  metricsPath?: string;
}

/**
 * `await app.register(webhookInbox, { inbox, path: '/webhooks/forms' })`. The raw JSON parser
 * applies inside the plugin's own scope only; JSON routes elsewhere keep Fastify's parser.
 */
export async function webhookInbox(app: FastifyInstance, options: FastifyInboxOptions): Promise<void> {
  const { inbox, path = '/webhooks/forms', healthPath, metricsPath } = options;
  const config = receiveConfigOf(inbox);
  await app.register(async (scope) => {
    await registerFastifyVerification(scope, config);
    scope.post(
      path,
      webhookRoute(async (request, reply) => {
        const answer = await withinFastifyReceive(request, request.webhook, () =>
          answerDelivery(inbox, fastifyDelivery(request)),
        );
        return reply.code(answer.status).headers(answer.headers).send(answer.body);
      }),
    );
  });
  if (healthPath) {
    app.get(healthPath, async (_request, reply) => {
      const answer = await answerHealth(inbox);
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    });
  }
  if (metricsPath) {
    app.get(metricsPath, async (_request, reply) => {
      const answer = await answerMetrics();
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    });
  }
}
