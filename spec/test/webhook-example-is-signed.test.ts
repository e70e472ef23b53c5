// The webhook example's documented signature is the HMAC-SHA256 of its compact serialisation
// under the documented test secret, and the standalone schema accepts it.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSpecValidator } from '../lib/validator.mjs';
import { bundle, readJson, resolve } from './load-bundle.js';

const webhook = resolve(bundle.webhooks['submission.created']).post;
const examples = Object.entries<any>(webhook.requestBody.content['application/json'].examples);

describe('submission.created example', () => {
  it.each(examples)('%s carries a signature that matches its body', (_name, example) => {
    const secret = example['x-test-secret'];
    expect(secret).toMatch(/^.{12,}$/);
    const rawBody = JSON.stringify(example.value);
    const expected = `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody, 'utf8').digest('hex')}`;
    expect(example['x-signature']).toBe(expected);
    expect(example['x-signature']).toMatch(
      new RegExp(webhook.parameters.find((p: any) => p.name === 'X-Webhook-Signature').schema.pattern),
    );
  });

  it('matches the published test vector byte for byte', () => {
    const [, example] = examples[0]!;
    expect(JSON.stringify(example.value)).toBe(
      '{"form_id":123,"form_title":"Contact Form","form_slug":"contact-form-ab12cd","submission":{"Name":"Jane Doé","Website":"https://example.com/a"},"data":{"3700d380-197b-47b9-a008-3acc31bbd506":{"value":"Jane Doé","name":"Name","type":"text"},"12461db5-0c19-429e-840b-8de1e359c42f":{"value":"https://example.com/a","name":"Website","type":"url"}},"message":"Please do not use the `submission` field. It is deprecated and will be removed in the future.","submission_id":456}',
    );
    expect(example['x-signature']).toBe('sha256=ee44b19c75e4c2b4bd663159443a0baf9b35b1ce9f9dbf3ef9c9b3edd50f25ca');
  });

  it('validates against the standalone JSON Schema shipped beside the bundle', async () => {
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const { default: addFormats } = await import('ajv-formats');
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(readJson('dist/submission-created.schema.json'));
    const [, example] = examples[0]!;
    expect(validate(example.value), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...example.value, submission_id: 'not-an-integer' })).toBe(false);
    const { form_title: _dropped, ...withoutTitle } = example.value;
    expect(validate(withoutTitle)).toBe(false);
    expect(createSpecValidator(bundle).validateWebhookPayload(example.value).valid).toBe(true);
  });
});
