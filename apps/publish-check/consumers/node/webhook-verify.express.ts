// An Express user under --strict: the verified route's handler is given a typed `req.webhook`, no
// cast; Express's own Request is not augmented, so other routes do not appear to have it
// (issue #30 item 19: a global declaration made every route compile and meet `undefined`).
import express from 'express';
import {
  webhookMiddleware,
  type VerifiedWebhookRequest,
  type WebhookRequest,
  type WebhookRequestHandler,
} from '@forms-api/webhook-verify/express';

const app: express.Express = express();
app.post(
  '/webhooks/forms',
  webhookMiddleware({ secret: 'whsec_1234567890ab' }, (req, res) => {
    const title: string = req.webhook.form_title;
    const id: number = req.webhook.submission_id;
    const raw: Uint8Array = req.rawBody;
    const header: string | undefined = req.get('x-webhook-signature'); // still Express's Request
    // @ts-expect-error the payload is typed, not any
    const wrong: number = req.webhook.form_title;
    res.json({ title, id, size: raw.length, header, wrong });
  }),
);

// Other routes, with or without the middleware in front: Express's Request has no `webhook`.
app.post('/other', (req, res) => {
  // @ts-expect-error not a verified route
  res.json(req.webhook);
});
app.post('/chained', webhookMiddleware({ secret: 'whsec_1234567890ab' }), (req, res) => {
  // @ts-expect-error the next handler's request type is Express's own
  res.json(req.rawBody);
});

// The handler can be written apart, typed by the package.
const handle: WebhookRequestHandler = (req: WebhookRequest, res) => void res.send(req.webhook.form_title);
express.Router().post('/hook', webhookMiddleware({ secret: 'whsec_1234567890ab' }, handle));

// `createWebhookListener` (node:http) still hands its handler a verified IncomingMessage.
export type { VerifiedWebhookRequest };
export { app };
