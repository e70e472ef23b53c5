// A signed submission.created delivery, shaped like the service's, unique per call (so the inbox
// never takes it for a copy of an earlier one).
import { randomInt } from 'node:crypto';
import { sign } from '@forms-api/webhook-verify';

export async function signedDelivery(secret: string): Promise<{ body: string; headers: Record<string, string> }> {
  const submissionId = randomInt(1, 2 ** 31);
  const body = JSON.stringify({
    form_id: 11,
    form_title: 'Contact us',
    form_slug: 'contact-us-a1b2c3',
    submission: { Name: 'Jane Doe' },
    data: { 'a1b2c3d4-0000-4000-a000-000000000001': { value: 'Jane Doe', name: 'Name', type: 'text' } },
    message: 'Please do not use the `submission` field. It is deprecated and will be removed in the future.',
    submission_id: submissionId,
  });
  return { body, headers: { 'content-type': 'application/json', 'x-webhook-signature': await sign(secret, body) } };
}
