// An ESM user loads the bundled spec, the webhook schema and the drift ledger, and validates.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createSpecValidator } from '@forms-api/spec/validator';

const require = createRequire(import.meta.url);
const bundle = require('@forms-api/spec/openapi.json');
const drift = require('@forms-api/spec/drift.json');
const schema = require('@forms-api/spec/submission-created.schema.json');
assert.equal(bundle.openapi, '3.1.0');
assert.ok(drift.entries.length > 0);
assert.deepEqual(schema.required, ['form_id', 'form_title', 'submission_id', 'submission']);
const validator = createSpecValidator(bundle);
assert.equal(
  validator.validateComponent('FileEntry', { file_url: 'https://x.test/f?expires=1&signature=ab', file_name: 'a.pdf' })
    .valid,
  true,
);
console.log('esm: @forms-api/spec ok');
