// An ESM user on Node gets the node:crypto build, verifies the published vector, and can load
// the Web Crypto build and the validator explicitly.
import assert from 'node:assert/strict';
import { isWebhookVerifyError, sign, verify } from '@forms-api/webhook-verify';
import * as web from '@forms-api/webhook-verify/web';
import { createPayloadValidator } from '@forms-api/webhook-verify/validate';
import { webhookHandler } from '@forms-api/webhook-verify/fetch';

const secret = 'whsec_1234567890abcdefghijklmnop';
const body = '{"form_id":1,"form_title":"T","submission":{},"submission_id":2}';
const header = await sign(secret, body);
assert.equal(await verify(secret, body, header), true);
assert.equal(await web.verify(secret, body, header), true);
await assert.rejects(
  verify(secret, { parsed: true }, header),
  (error) => isWebhookVerifyError(error) && error.kind === 'invalid_body',
);
assert.deepEqual(createPayloadValidator()(JSON.parse(body)), []);
const response = await webhookHandler(
  { secret },
  () => new Response('ok'),
)(
  new Request('http://x.test/', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': header },
  }),
);
assert.equal(await response.text(), 'ok');
console.log('esm: @forms-api/webhook-verify ok');
