// An ESM user on Node: the inbox and its adapters resolve and work without Redis where they must
// (rejections never touch Redis; a signed delivery with Redis unreachable is a 503 at once), the
// CLI loads, and its own `forms-webhook-inbox` command runs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sign } from '@forms-api/webhook-verify';
import { createInbox, InboxError, jobIdFor, RedisReplayStore } from '@forms-api/webhook-inbox';
import { inboxHandler } from '@forms-api/webhook-inbox/fetch';
import { closeHttpServer, inboxMiddleware } from '@forms-api/webhook-inbox/express';
import { webhookInbox } from '@forms-api/webhook-inbox/fastify';
import { runInboxCli } from '@forms-api/webhook-inbox/cli';

const secret = 'whsec_1234567890abcdefghijklmnop';
const body = '{"form_id":1,"form_title":"T","submission":{},"submission_id":2}';
const inbox = createInbox({ connection: 'redis://127.0.0.1:1', secret, onRedisError: () => {} });
const handler = inboxHandler(inbox);
const post = (headers) =>
  handler(
    new Request('http://x.test/hook', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );

const unsigned = await post({});
assert.equal(unsigned.status, 401);
assert.equal((await unsigned.json()).error, 'missing_signature');
const signature = await sign(secret, body);
const unavailable = await post({ 'x-webhook-signature': signature });
assert.equal(unavailable.status, 503);
assert.equal((await unavailable.json()).error, 'redis_unavailable');
await inbox.close();

assert.match(jobIdFor(signature), /^wh-[0-9a-f]{64}$/);
assert.throws(() => createInbox({ connection: 'localhost', secret }), InboxError);
const other = createInbox({ connection: 'redis://127.0.0.1:1', secret, onRedisError: () => {} });
assert.equal(typeof inboxMiddleware(other), 'function');
await other.close();
assert.equal(typeof closeHttpServer, 'function');
assert.equal(typeof webhookInbox, 'function');
assert.equal(typeof RedisReplayStore.prototype.claim, 'function');

let usage = '';
assert.equal(await runInboxCli(['--help'], { out: (l) => (usage += l), err: () => {} }), 0);
assert.match(usage, /stats/);
const bin = fileURLToPath(
  new URL('./node_modules/@forms-api/webhook-inbox/bin/forms-webhook-inbox.js', import.meta.url),
);
assert.match(execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' }), /retry <id>/);
console.log('esm: @forms-api/webhook-inbox ok');
