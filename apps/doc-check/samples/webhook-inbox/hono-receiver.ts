import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createInbox } from '@forms-api/webhook-inbox';
import { inboxHandler, inboxHealthHandler } from '@forms-api/webhook-inbox/fetch';

const inbox = createInbox({ connection: process.env.REDIS_URL!, secret: process.env.FORMS_WEBHOOK_SECRET! });
const receive = inboxHandler(inbox);
const health = inboxHealthHandler(inbox);

const app = new Hono();
app.post('/webhooks/forms', (c) => receive(c.req.raw));
app.get('/healthz', () => health());
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) });
