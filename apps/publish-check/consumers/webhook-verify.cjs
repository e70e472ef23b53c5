// A CommonJS user requires the Node build and the Express adapter.
const assert = require('node:assert/strict');
const { sign, verify } = require('@forms-api/webhook-verify');
const { webhookMiddleware } = require('@forms-api/webhook-verify/express');

(async () => {
  const secret = 'whsec_1234567890abcdefghijklmnop';
  const header = await sign(secret, '{}');
  assert.equal(await verify(secret, '{}', header), true);
  assert.equal(typeof webhookMiddleware({ secret }), 'function');
  console.log('cjs: @forms-api/webhook-verify ok');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
