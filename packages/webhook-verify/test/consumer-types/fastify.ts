// A Fastify user under --strict: request.webhook is typed by the plugin's augmentation.
import Fastify from 'fastify';
import { webhookVerify } from '@forms-api/webhook-verify/fastify';

const app = Fastify();
app.register(async (scope) => {
  await scope.register(webhookVerify, { secret: 'whsec_1234567890ab' });
  scope.post('/hook', async (request) => ({ title: request.webhook.form_title satisfies string }));
});
export { app };
