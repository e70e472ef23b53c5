import { verifyOrThrow, WebhookVerificationError } from '@forms-api/webhook-verify';

const secret = process.env.FORMS_WEBHOOK_SECRET!;

export async function POST(request: Request): Promise<Response> {
  const rawBody = await request.arrayBuffer();
  try {
    await verifyOrThrow(secret, rawBody, request.headers.get('x-webhook-signature'));
  } catch (err) {
    if (err instanceof WebhookVerificationError) return new Response(null, { status: 401 });
    throw err;
  }
  const event = JSON.parse(new TextDecoder().decode(rawBody));
  console.log(event.form_title); // … handle the event …
  return new Response(null, { status: 204 });
}
