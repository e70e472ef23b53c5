// A signed submission.created delivery: the spec's own example, for the sandbox's form 11 (the
// samples print it), with a new submission id per call (so the inbox never takes it for a copy).
import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { sign } from '@forms-api/webhook-verify';

const spec = createRequire(import.meta.url)('@forms-api/spec/openapi.json');
const [example] = Object.values(
  spec.webhooks['submission.created'].post.requestBody.content['application/json'].examples as Record<
    string,
    { value: Record<string, unknown> }
  >,
);

export async function signedDelivery(secret: string): Promise<{ body: string; headers: Record<string, string> }> {
  const body = JSON.stringify({ ...example!.value, form_id: 11, submission_id: randomInt(1, 2 ** 31) });
  return { body, headers: { 'content-type': 'application/json', 'x-webhook-signature': await sign(secret, body) } };
}
