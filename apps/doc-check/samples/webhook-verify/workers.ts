import { webhookHandler } from '@forms-api/webhook-verify/fetch';

interface Env {
  FORMS_WEBHOOK_SECRET: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // Cheap per request: the imported key is cached per secret.
    const receive = webhookHandler({ secret: env.FORMS_WEBHOOK_SECRET }, async (event) => {
      console.log(event.form_title, event.submission_id);
      return new Response(null, { status: 204 });
    });
    return receive(request);
  },
};
