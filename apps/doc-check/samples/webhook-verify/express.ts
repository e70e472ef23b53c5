import express from 'express';
import { webhookMiddleware } from '@forms-api/webhook-verify/express';

const app = express();
// Mount it before any express.json() (it reads the raw body itself), or after
// express.raw({ type: 'application/json' }) / express.text({ type: 'application/json' }).
app.post(
  '/webhooks/forms',
  webhookMiddleware({ secret: process.env.FORMS_WEBHOOK_SECRET! }, (req, res) => {
    const event = req.webhook; // the verified SubmissionCreatedPayload, typed on this route only
    console.log(event.form_title, event.submission_id);
    res.sendStatus(204);
  }),
);
app.listen(Number(process.env.PORT ?? 3000));
