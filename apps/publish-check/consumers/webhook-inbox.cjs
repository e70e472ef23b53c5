// A CommonJS user requires the inbox, its Express and Fastify adapters and the CLI; an error from
// an adapter entry is an instance of the class from the package root (one copy between entries).
const assert = require('node:assert/strict');
const {
  createInbox,
  createInboxWorker,
  closeOnSignals,
  InboxError,
  RedisReplayStore,
} = require('@forms-api/webhook-inbox');
const { inboxMiddleware } = require('@forms-api/webhook-inbox/express');
const { webhookInbox } = require('@forms-api/webhook-inbox/fastify');
const { runInboxCli } = require('@forms-api/webhook-inbox/cli');

assert.equal(typeof createInbox, 'function');
assert.equal(typeof createInboxWorker, 'function');
assert.equal(typeof closeOnSignals, 'function');
assert.equal(typeof RedisReplayStore, 'function');
assert.equal(typeof webhookInbox, 'function');
assert.equal(typeof runInboxCli, 'function');
assert.throws(
  () => inboxMiddleware({}),
  (error) => error instanceof InboxError && error.kind === 'invalid_option',
);
console.log('cjs: @forms-api/webhook-inbox ok');
