import { Hono } from 'hono';
import { webhookHandler } from '@forms-api/webhook-verify/fetch';

const receive = webhookHandler({ secret: process.env.FORMS_WEBHOOK_SECRET! }, async (event) => {
  console.log(event.form_title, event.submission_id);
  return new Response(null, { status: 204 });
});

const app = new Hono();
// Pass the raw Request before any middleware reads its body (c.req.json() would consume it).
app.post('/webhooks/forms', (c) => receive(c.req.raw));
export default app;
