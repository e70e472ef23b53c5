import { createServer } from 'node:http';
import { createWebhookListener } from '@forms-api/webhook-verify/node';

// The listener calls the handler with verified payloads only.
createServer(
  createWebhookListener({ secret: process.env.FORMS_WEBHOOK_SECRET! }, (event, _req, res) => {
    console.log(event.form_title);
    res.writeHead(204).end();
  }),
).listen(Number(process.env.PORT ?? 3000));
