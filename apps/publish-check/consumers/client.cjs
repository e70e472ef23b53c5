// A CommonJS user requires the client.
const assert = require('node:assert/strict');
const { createFormsClient } = require('@forms-api/client');
const { withoutQuerySecrets } = require('@forms-api/client/redact');

const client = createFormsClient({ baseUrl: 'https://api.example.com', token: '1|abc' });
assert.equal(typeof client.forms.list, 'function');
assert.equal(withoutQuerySecrets('https://example.com/?token=abc'), 'https://example.com/?token=[REDACTED]');
console.log('cjs: @forms-api/client ok');
