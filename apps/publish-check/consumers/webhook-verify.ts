// A TypeScript user gets typed payloads and error kinds; a wrong kind must not compile.
import { isWebhookVerifyError, parseWebhook, type SubmissionCreatedPayload } from '@forms-api/webhook-verify';
import { webhookHandler } from '@forms-api/webhook-verify/fetch';

export async function handle(raw: Uint8Array, header: string | null): Promise<number> {
  try {
    const payload: SubmissionCreatedPayload = await parseWebhook('whsec_1234567890ab', raw, header);
    return payload.submission_id;
  } catch (error) {
    if (isWebhookVerifyError(error)) {
      // @ts-expect-error 'bad_signature' is not a kind
      if (error.kind === 'bad_signature') return -2;
      return error.kind === 'signature_mismatch' ? -1 : 0;
    }
    throw error;
  }
}
export const fetchHandler = webhookHandler(
  { secret: 'whsec_1234567890ab' },
  (payload) => new Response(payload.form_title),
);
