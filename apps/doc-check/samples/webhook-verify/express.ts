import express from 'express';
import { webhookMiddleware } from '@forms-api/webhook-verify/express';

const app = express();
// Mount before any express.json(), or use express.raw({ type: 'application/json' }) on this route.
app.post('/webhooks/forms', webhookMiddleware({ secret: process.env.FORMS_WEBHOOK_SECRET! }), (req, res) => {
  // req.webhook is the verified, typed SubmissionCreatedPayload (no cast needed).
  console.log(req.webhook.form_title, req.webhook.submission_id);
  res.sendStatus(204);
});
app.listen(Number(process.env.PORT ?? 3000));
