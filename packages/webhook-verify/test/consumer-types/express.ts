// An Express user under --strict: req.webhook is typed by the middleware's augmentation, no cast.
import express from 'express';
import { webhookMiddleware, type VerifiedWebhookRequest } from '@forms-api/webhook-verify/express';

const app: express.Express = express();
app.post('/webhooks/forms', webhookMiddleware({ secret: 'whsec_1234567890ab' }), (req, res) => {
  const title: string = req.webhook.form_title;
  const id: number = req.webhook.submission_id;
  const raw: Uint8Array = req.rawBody;
  const verified: VerifiedWebhookRequest = req as VerifiedWebhookRequest;
  // @ts-expect-error the payload is typed, not any
  const wrong: number = req.webhook.form_title;
  res.json({ title, id, size: raw.length, same: verified.webhook === req.webhook, wrong });
});
export { app };
