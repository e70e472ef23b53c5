// Issue 22 bug 2: after POST /__sandbox/reset, submission and integration ids go on from where
// they were, so the same answer sent before and after a reset makes two different signed
// deliveries (a receiver's replay or dedupe store would otherwise drop the second as a copy).
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, fieldIds, receiver, sandbox } from './support.js';

let running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

async function answerThroughAWebhook(s: SandboxHandle, url: string) {
  const hook = await call(s.baseUrl, 'POST', '/open/forms/11/integrations', {
    token: s.tokens.all,
    body: {
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: url, webhook_secret: 'whsec_reset_test_secret' },
    },
  });
  expect(hook.status).toBe(200);
  const ids = await fieldIds(s, 11);
  const answer = await call(s.baseUrl, 'POST', '/forms/11/answer', {
    body: { [ids.Name!]: 'Same answer', [ids.Email!]: 'same@example.com' },
  });
  expect(answer.status).toBe(200);
  const list = await call(s.baseUrl, 'GET', '/open/forms/11/submissions', { token: s.tokens.all });
  return { integrationId: hook.body.form_integration.id as number, submissionId: list.body.data[0].id as number };
}

describe.each(['contract', 'observed'] as const)('%s', (behaviour) => {
  it('the same answer before and after a reset is delivered as two different bodies, with new ids', async () => {
    const s = await sandbox({ behaviour });
    const rx = await receiver();
    running.push(s, rx);
    const before = await answerThroughAWebhook(s, rx.url);
    expect((await call(s.baseUrl, 'POST', '/__sandbox/reset', { token: s.adminToken })).status).toBe(200);
    const after = await answerThroughAWebhook(s, rx.url);
    await expect.poll(() => rx.deliveries.length).toBe(2);
    const [first, second] = rx.deliveries.map((d) => d.raw.toString('utf8'));
    expect(second).not.toBe(first);
    expect(after.submissionId).toBeGreaterThan(before.submissionId);
    expect(after.integrationId).toBeGreaterThan(before.integrationId);
    expect(JSON.parse(second!).submission_id).not.toEqual(JSON.parse(first!).submission_id);
    // The seed itself comes back as it was: its submissions keep their ids.
    const seeded = await call(s.baseUrl, 'GET', '/open/forms/12/submissions', { token: s.tokens.all });
    expect(seeded.body.data.length).toBeGreaterThan(0);
  });
});
