import { createInbox } from '@forms-api/webhook-inbox';
import { inboxHandler } from '@forms-api/webhook-inbox/fetch';

export const runtime = 'nodejs';
export const POST = inboxHandler(
  createInbox({ connection: process.env.REDIS_URL!, secret: process.env.FORMS_WEBHOOK_SECRET! }),
);
