// A test file of yours: one fresh sandbox for the file, closed after it (node:test here; the
// before/after hooks of any test runner work the same way).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createFormsClient } from '@forms-api/client';
import { startSandbox, type SandboxHandle } from '@forms-api/sandbox';

let sandbox: SandboxHandle;
before(async () => {
  sandbox = await startSandbox({ port: 0, allowPrivateWebhooks: true, rateLimit: false });
});
after(() => sandbox.close());

test('lists the forms of the first workspace', async () => {
  const client = createFormsClient({ baseUrl: sandbox.baseUrl, token: sandbox.tokens.read });
  const page = await client.forms.list(sandbox.workspaces[0]!.id);
  assert.ok(page.data.length > 0);
});
