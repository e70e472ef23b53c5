// The sandbox ships ESM only (a test-setup tool; Node >= 20.19 is required anyway), and a
// CommonJS test setup can still require() it there: Node 20.19+ loads ES modules with require().
const assert = require('node:assert/strict');
const { startSandbox, isSandboxError } = require('@forms-api/sandbox');
const { FAULT_CATALOGUE } = require('@forms-api/sandbox/faults');

assert.equal(typeof startSandbox, 'function');
assert.equal(typeof isSandboxError, 'function');
assert.ok(FAULT_CATALOGUE['drop-required-field']);
console.log('cjs: @forms-api/sandbox ok');
