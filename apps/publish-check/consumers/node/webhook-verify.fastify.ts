// A Fastify user under --strict: the handler wrapped in webhookRoute is given a typed
// `request.webhook` and a Buffer body, no cast; FastifyRequest is not augmented, so other routes do
// not appear to have it (issue #30: a global declaration made every route compile and meet `undefined`).
import Fastify from 'fastify';
import {
  webhookRoute,
  webhookVerify,
  type FastifyWebhookHandler,
  type FastifyWebhookRequest,
} from '@forms-api/webhook-verify/fastify';

const app = Fastify();
app.register(async (scope) => {
  await scope.register(webhookVerify, { secret: 'whsec_1234567890ab' });
  scope.post(
    '/hook',
    webhookRoute(async (request, reply) => {
      const title: string = request.webhook.form_title;
      const raw: Uint8Array = request.body;
      const header: string | string[] | undefined = request.headers['x-webhook-signature']; // still Fastify's request
      // @ts-expect-error the payload is typed, not any
      const wrong: number = request.webhook.form_title;
      return reply.send({ title, size: raw.length, header, wrong });
    }),
  );
  // In the plugin's scope too, a route not wrapped in webhookRoute is typed as Fastify's own.
  scope.post('/plain', async (request) => {
    // @ts-expect-error only webhookRoute's handler is given the payload
    return request.webhook;
  });
});

// Any other route: FastifyRequest has no `webhook`.
app.post('/other', async (request) => {
  // @ts-expect-error not a verified route
  return request.webhook.form_title;
});

// The handler can be written apart, typed by the package.
const handle: FastifyWebhookHandler = async (request: FastifyWebhookRequest) => request.webhook.submission_id;
app.register(async (scope) => {
  await scope.register(webhookVerify, { secret: 'whsec_1234567890ab' });
  scope.post('/apart', webhookRoute(handle));
});
export { app };
