import { webhookHandler } from '@forms-api/webhook-verify/fetch';

// A Next.js route handler (app/webhooks/forms/route.ts); Hono, Deno and Bun take the same function.
export const POST = webhookHandler({ secret: process.env.FORMS_WEBHOOK_SECRET! }, async (event) => {
  console.log(event.form_title, event.submission_id);
  return new Response(null, { status: 204 });
});
