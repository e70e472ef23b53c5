import { webhookHandler } from '@forms-api/webhook-verify/fetch';

interface Env {
  FORMS_WEBHOOK_SECRET: string;
}

// Cloudflare Workers: the secret is a binding of `env`, known per request.
export default {
  fetch(request: Request, env: Env): Promise<Response> {
    const handle = webhookHandler({ secret: env.FORMS_WEBHOOK_SECRET }, async (event) => {
      console.log(event.form_title, event.submission_id);
      return new Response(null, { status: 204 });
    });
    return handle(request);
  },
};
