// A CommonJS user requires the client.
const assert = require('node:assert/strict');
const { createFormsClient } = require('@forms-api/client');

const client = createFormsClient({ baseUrl: 'https://api.example.com', token: '1|abc' });
assert.equal(typeof client.forms.list, 'function');
console.log('cjs: @forms-api/client ok');
