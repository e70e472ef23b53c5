import Fastify from 'fastify';
import { webhookRoute, webhookVerify } from '@forms-api/webhook-verify/fastify';

// Register the plugin inside the scope of the webhook routes only; webhookRoute types the handler.
const app = Fastify();
await app.register(async (scope) => {
  await scope.register(webhookVerify, { secret: process.env.FORMS_WEBHOOK_SECRET! });
  scope.post(
    '/webhooks/forms',
    webhookRoute(async (request, reply) => {
      console.log(request.webhook.form_title);
      return reply.code(204).send();
    }),
  );
});
await app.listen({ port: Number(process.env.PORT ?? 3000) });
