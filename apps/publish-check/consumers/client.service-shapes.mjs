// An ESM user against a sandbox that behaves like the service (issue 19): code written to the
// service's types runs without a crash on what arrives: a form whose tags are null, the public UUID
// an update answers with, a one-field update that keeps every other answer, and events read by
// their `status` ('Success').
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createFormsClient } from '@forms-api/client';
import { startSandbox } from '@forms-api/sandbox';

const receiver = createServer((req, res) => req.resume().on('end', () => res.end('{"ok":true}')));
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const sandbox = await startSandbox({ port: 0, rateLimit: false, behaviour: 'observed', allowPrivateWebhooks: true });
try {
  const forms = createFormsClient({ baseUrl: sandbox.baseUrl, token: sandbox.tokens.all, retry: { retries: 0 } });
  const [workspace] = sandbox.workspaces;

  const all = [];
  for await (const form of forms.forms.iterate(workspace.id)) all.push(form);
  assert.ok(
    all.some((form) => form.tags === null),
    'a form whose tags are null',
  );
  assert.ok(all.flatMap((form) => form.tags ?? []).length > 0);

  const form = await forms.forms.get(16);
  const field = (name) => form.properties.find((p) => p.name === name).id;
  const [before] = (await forms.submissions.list(16, { perPage: 1, status: 'completed' })).data;
  const updated = await forms.submissions.updateKeeping({
    form: 16,
    submission: before.id,
    changes: { [field('Amount')]: 42 },
  });
  assert.equal(typeof updated.data.submission_id, 'string');
  const [after] = (await forms.submissions.list(16, { perPage: 1, status: 'completed' })).data;
  assert.equal(Object.keys(after.data).length, Object.keys(before.data).length);
  assert.equal(after.completion_time, before.completion_time);

  const { port } = receiver.address();
  const saved = await forms.integrations.create(11, {
    integration_id: 'webhook',
    status: 'active',
    data: { webhook_url: `http://127.0.0.1:${port}/hook` },
  });
  const integrationId = saved.form_integration.id;
  const contact = await forms.forms.get(11);
  await forms.answers.submit(
    11,
    Object.fromEntries(
      contact.properties
        .filter((p) => p.type === 'text' || p.type === 'email')
        .map((p) => [p.id, p.type === 'email' ? 'ada@example.com' : 'Ada']),
    ),
  );
  let events = [];
  for (let tries = 0; tries < 50 && events.length === 0; tries++) {
    events = await forms.integrations.events({ form: 11, integration: integrationId });
    if (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(
    events.some((event) => event.status === 'Success'),
    `a Success event (got ${JSON.stringify(events)})`,
  );
} finally {
  await sandbox.close();
  receiver.close();
}
console.log('esm: @forms-api/client with the service-like sandbox ok');
