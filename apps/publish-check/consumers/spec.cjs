// A CommonJS user requires the JSON documents (the validator is ESM-only, by design).
const assert = require('node:assert/strict');
const bundle = require('@forms-api/spec/openapi.json');
assert.equal(bundle.openapi, '3.1.0');
assert.ok(require('@forms-api/spec/drift.json').entries.length > 0);
console.log('cjs: @forms-api/spec ok');
