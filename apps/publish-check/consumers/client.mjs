// An ESM user creates a client and gets typed errors (options are checked before any request).
import assert from 'node:assert/strict';
import { createFormsClient, FormsApiError } from '@forms-api/client';
import { createRedactor, REDACTED } from '@forms-api/client/redact';

assert.throws(() => createFormsClient({ baseUrl: 'not a url', token: 't' }), FormsApiError);
const client = createFormsClient({ baseUrl: 'https://api.example.com', token: '1|abc' });
assert.equal(typeof client.GET, 'function');
assert.equal(typeof client.submissions.iterate, 'function');
assert.equal(createRedactor('1|abc')('Bearer 1|abc'), `Bearer ${REDACTED}`);
console.log('esm: @forms-api/client ok');
