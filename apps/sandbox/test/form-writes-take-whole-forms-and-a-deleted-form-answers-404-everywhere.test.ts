// createForm, updateForm and deleteForm over HTTP, in both behaviours: a whole form is required to
// create or replace one (the same rules), the body is judged before the caller's role, a title is
// cut to 255 characters, and a deleted form answers 404 on every path and leaves every list.
// Every answer is validated against the spec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, sideBySide, wholeForm } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
beforeAll(async () => {
  sbs = await sideBySide();
});
afterAll(() => sbs.close());

describe.each(['contract', 'observed'] as const)('%s', (which) => {
  const sb = (): SandboxHandle => sbs[which];
  // The observed form list departs from the spec on purpose (the drift ledger): not validated there.
  const validated = (operationId: string) => which === 'contract' || operationId !== 'listWorkspaceForms';
  const send = (method: string, path: string, operationId: string, token: string, body?: unknown) =>
    call(sb().baseUrl, method, path, {
      token,
      ...(validated(operationId) ? { operationId } : {}),
      ...(body === undefined ? {} : { body }),
    });
  const create = (token: string, body: unknown) => send('POST', '/open/forms', 'createForm', token, body);

  it('createForm: saves a whole form that getForm and the workspace list show back', async () => {
    const created = await create(sb().tokens.all, { ...wholeForm('Bug report'), workspace_id: 1 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'success', message: 'Form created.', users_first_form: false });
    const { id, slug } = created.body.form;
    expect(slug).toMatch(/^bug-report-[a-z0-9]{6}$/);
    const read = await send('GET', `/open/forms/${id}`, 'getForm', sb().tokens.read);
    expect(read.body).toMatchObject({ id, title: 'Bug report', workspace_id: 1, theme: 'default', size: 'md' });
    const list = await send('GET', '/open/workspaces/1/forms?per_page=100', 'listWorkspaceForms', sb().tokens.read);
    expect(list.body.data.map((f: { id: number }) => f.id)).toContain(id);
  });

  it('createForm: the body is judged before the role, and a long title is cut, not refused', async () => {
    const { theme: _theme, ...withoutTheme } = wholeForm('No theme');
    const missing = await create(sb().tokens.all, { ...withoutTheme, workspace_id: 1 });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(['theme']);
    const nowhere = await create(sb().tokens.all, { ...wholeForm('Nowhere'), workspace_id: 99 });
    expect(Object.keys(nowhere.body.errors)).toEqual(['workspace_id']);
    // A read-only member sending an invalid body hears of the body first.
    expect((await create(sb().tokens.readonly, { ...withoutTheme, workspace_id: 1 })).status).toBe(422);
    for (const name of ['readonly', 'outsider', 'withoutWrite', 'read'] as const)
      expect((await create(sb().tokens[name]!, { ...wholeForm('Refused'), workspace_id: 1 })).status, name).toBe(403);
    expect((await create(sb().tokens.editor!, { ...wholeForm('By a member'), workspace_id: 1 })).status).toBe(200);
    const long = await create(sb().tokens.all, { ...wholeForm(`  ${'x'.repeat(300)}  `), workspace_id: 2 });
    expect(long.status).toBe(200);
    expect(long.body.form.title).toBe('x'.repeat(255));
  });

  it('updateForm: replaces the whole form; a partial body is refused; 404 before 422 before 403', async () => {
    const { id } = (await create(sb().tokens.all, { ...wholeForm('To rename'), workspace_id: 1 })).body.form;
    const partial = await send('PUT', `/open/forms/${id}`, 'updateForm', sb().tokens.all, { title: 'Renamed' });
    expect(partial.status).toBe(422);
    expect(Object.keys(partial.body.errors)).toContain('properties');
    const whole = await send('PUT', `/open/forms/${id}`, 'updateForm', sb().tokens.all, {
      ...wholeForm('Renamed'),
      theme: 'notion',
    });
    expect(whole.status).toBe(200);
    expect(whole.body).toMatchObject({ type: 'success', message: 'Form updated.', form: { id, title: 'Renamed' } });
    expect((await send('GET', `/open/forms/${id}`, 'getForm', sb().tokens.all)).body.theme).toBe('notion');
    expect((await send('PUT', '/open/forms/987654', 'updateForm', sb().tokens.readonly, {})).status).toBe(404);
    expect((await send('PUT', `/open/forms/${id}`, 'updateForm', sb().tokens.readonly, {})).status).toBe(422);
    const refused = await send('PUT', `/open/forms/${id}`, 'updateForm', sb().tokens.readonly, wholeForm('Nope'));
    expect(refused.status).toBe(403);
  });

  it('deleteForm: read-only members are refused; afterwards the form answers 404 everywhere and leaves every list', async () => {
    const { id, slug } = (await create(sb().tokens.all, { ...wholeForm('Short-lived'), workspace_id: 1 })).body.form;
    expect((await send('DELETE', `/open/forms/${id}`, 'deleteForm', sb().tokens.readonly)).status).toBe(403);
    const deleted = await send('DELETE', `/open/forms/${slug}`, 'deleteForm', sb().tokens.editor!);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ type: 'success', message: 'Form was deleted.' });
    const token = sb().tokens.all;
    expect((await send('GET', `/open/forms/${id}`, 'getForm', token)).status).toBe(404);
    expect((await send('GET', `/open/forms/${slug}`, 'getForm', token)).status).toBe(404);
    expect((await send('PUT', `/open/forms/${id}`, 'updateForm', token, wholeForm('Back'))).status).toBe(404);
    expect((await send('DELETE', `/open/forms/${id}`, 'deleteForm', token)).status).toBe(404);
    expect((await send('GET', `/open/forms/${id}/submissions`, 'listFormSubmissions', token)).status).toBe(404);
    expect((await send('GET', `/open/forms/${id}/integrations`, 'listFormIntegrations', token)).status).toBe(404);
    expect((await call(sb().baseUrl, 'POST', `/forms/${slug}/answer`, { body: {} })).status).toBe(404);
    const list = await send('GET', '/open/workspaces/1/forms?per_page=100', 'listWorkspaceForms', token);
    expect(list.body.data.map((f: { id: number }) => f.id)).not.toContain(id);
    const all = await send('GET', '/open/forms', 'listAllForms', token);
    expect(all.body.map((f: { id: number }) => f.id)).not.toContain(id);
  });

  it('deleteForm: takes the form’s webhooks with it', async () => {
    const { id } = (await create(sb().tokens.all, { ...wholeForm('Hooked'), workspace_id: 1 })).body.form;
    const hook = await send('POST', `/open/forms/${id}/integrations`, 'createFormIntegration', sb().tokens.all, {
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: 'https://hooks.example.com/x' },
    });
    expect(hook.status).toBe(200);
    await send('DELETE', `/open/forms/${id}`, 'deleteForm', sb().tokens.all);
    const integrationId = hook.body.form_integration?.id ?? hook.body.id;
    const events = await send(
      'GET',
      `/open/forms/${id}/integrations/${integrationId}/events`,
      'listIntegrationEvents',
      sb().tokens.all,
    );
    expect(events.status).toBe(404);
  });
});
