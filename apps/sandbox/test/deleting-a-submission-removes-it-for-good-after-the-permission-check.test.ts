// deleteFormSubmission over HTTP, in both behaviours: an unknown form is 404, then the permission
// (403: read-only members and tokens without forms-write), then the submission (404 with an empty
// message; its id read as PHP's (int)); a deleted submission leaves the list and cannot be
// updated or deleted again, and no webhook is sent. Every answer is validated against the spec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, receiver, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
beforeAll(async () => {
  sbs = await sideBySide();
});
afterAll(() => sbs.close());

describe.each(['contract', 'observed'] as const)('%s', (which) => {
  const sb = (): SandboxHandle => sbs[which];
  const remove = (path: string, token: string) =>
    call(sb().baseUrl, 'DELETE', path, { token, operationId: 'deleteFormSubmission' });
  const ids = async (formId: number): Promise<number[]> => {
    const page = await call(sb().baseUrl, 'GET', `/open/forms/${formId}/submissions?per_page=100`, {
      token: sb().tokens.all,
    });
    return page.body.data.map((s: { id?: number; submission_id?: number }) => s.id ?? s.submission_id);
  };

  it('checks the form, then the permission, then the submission', async () => {
    expect((await remove('/open/forms/987654/submissions/987654', sb().tokens.readonly)).status).toBe(404);
    for (const name of ['readonly', 'outsider', 'read', 'withoutWrite'] as const)
      expect((await remove('/open/forms/16/submissions/987654', sb().tokens[name]!)).status, name).toBe(403);
    const unknown = await remove('/open/forms/16/submissions/987654', sb().tokens.all);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '' });
    // Another form's submission is not one of this form's.
    expect((await remove('/open/forms/16/submissions/1001', sb().tokens.all)).status).toBe(404);
    expect((await remove('/open/forms/16/submissions/abc', sb().tokens.all)).status).toBe(404);
  });

  it('deletes for good, reading the id as PHP’s (int) does, and sends no webhook', async () => {
    const hook = await receiver();
    try {
      const created = await call(sb().baseUrl, 'POST', '/open/forms/16/integrations', {
        token: sb().tokens.all,
        body: { integration_id: 'webhook', status: 'active', data: { webhook_url: hook.url } },
      });
      expect(created.status).toBe(200);
      const before = await ids(16);
      const victim = before[0]!;
      const deleted = await remove(`/open/forms/16/submissions/${victim}abc`, sb().tokens.editor!);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ type: 'success', message: 'Record successfully removed.' });
      expect(await ids(16)).toEqual(before.filter((id) => id !== victim));
      expect((await remove(`/open/forms/16/submissions/${victim}`, sb().tokens.all)).status).toBe(404);
      const update = await call(sb().baseUrl, 'PUT', `/open/forms/16/submissions/${victim}`, {
        token: sb().tokens.all,
        body: {},
      });
      expect(update.status).toBe(404);
      expect(hook.deliveries).toHaveLength(0);
    } finally {
      await hook.close();
    }
  });
});
