import { isWebhookVerifyError, verifyOrThrow, type WebhookVerifyErrorKind } from '@forms-api/webhook-verify';

const secret = process.env.FORMS_WEBHOOK_SECRET!;
const REFUSED = new Set<WebhookVerifyErrorKind>(['missing_signature', 'malformed_signature', 'signature_mismatch']);

export async function POST(request: Request): Promise<Response> {
  const rawBody = await request.arrayBuffer();
  try {
    await verifyOrThrow(secret, rawBody, request.headers.get('x-webhook-signature'));
  } catch (err) {
    // A bad signature is refused; a misuse (an unset secret: `invalid_secret`) is a bug: rethrow it.
    if (isWebhookVerifyError(err) && REFUSED.has(err.kind)) return new Response(null, { status: 401 });
    throw err;
  }
  const event = JSON.parse(new TextDecoder().decode(rawBody));
  console.log(event.form_title); // … handle the event …
  return new Response(null, { status: 204 });
}
