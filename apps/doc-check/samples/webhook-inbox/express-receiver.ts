import express from 'express';
import { closeOnSignals, createInbox } from '@forms-api/webhook-inbox';
import { closeHttpServer, inboxHealthMiddleware, inboxMiddleware } from '@forms-api/webhook-inbox/express';

const inbox = createInbox({
  connection: process.env.REDIS_URL!, // redis://host:6379, or ioredis options
  secret: process.env.FORMS_WEBHOOK_SECRET!, // the integration's webhook_secret
});

const app = express();
// Mount it before any express.json(): the signature covers the raw bytes.
app.post('/webhooks/forms', inboxMiddleware(inbox));
app.get('/healthz', inboxHealthMiddleware(inbox));
const server = app.listen(Number(process.env.PORT ?? 3000));

// On SIGTERM: stop accepting, answer the requests in hand, close Redis, exit.
closeOnSignals([() => closeHttpServer(server), inbox]);
