// createWorkspace, updateWorkspace and deleteWorkspace over HTTP, in both behaviours, with
// WorkspacePolicy's rules and messages: the plan's workspace limit before the ability, any member
// but a read-only one may rename, only an admin may delete and never their last workspace; a
// deleted workspace answers 404 and leaves the list. Every answer is validated against the spec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { defaultSeed } from '../src/seed/default-seed.js';
import { call, sandbox, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
beforeAll(async () => {
  sbs = await sideBySide();
});
afterAll(() => sbs.close());

describe.each(['contract', 'observed'] as const)('%s', (which) => {
  const sb = (): SandboxHandle => sbs[which];
  const send = (method: string, path: string, operationId: string, token: string, body?: unknown) =>
    call(sb().baseUrl, method, path, { token, operationId, ...(body === undefined ? {} : { body }) });
  const ids = async (token: string) =>
    (await send('GET', '/open/workspaces', 'listWorkspaces', token)).body.map((w: { id: number }) => w.id);

  it('createWorkspace: the creator is its only member, as admin; a free user past one workspace is refused first', async () => {
    const created = await send('POST', '/open/workspaces/create', 'createWorkspace', sb().tokens.all, {
      name: 'Design',
      emoji: '🎨',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'success', message: 'Workspace created.' });
    const id = created.body.workspace_id;
    expect(created.body.workspace).toMatchObject({ id, name: 'Design', icon: '🎨', is_admin: true, users_count: 1 });
    expect(created.body.workspace).not.toHaveProperty('users');
    expect(await ids(sb().tokens.all)).toContain(id);
    // Rita (read-only in one Pro workspace, admin of none) is on the free plan: one workspace at most,
    // and the limit is told before the missing ability or the missing name.
    const limited = await send('POST', '/open/workspaces/create', 'createWorkspace', sb().tokens.readonly, {});
    expect(limited.status).toBe(403);
    expect(limited.body.message).toBe(
      'You have reached the workspace limit for Free plan. Upgrade to create additional workspaces.',
    );
    const noAbility = await send('POST', '/open/workspaces/create', 'createWorkspace', sb().tokens.workspacesRead!, {
      name: 'x',
    });
    expect(noAbility.status).toBe(403);
    const noName = await send('POST', '/open/workspaces/create', 'createWorkspace', sb().tokens.all, {});
    expect(noName.status).toBe(422);
    expect(Object.keys(noName.body.errors)).toEqual(['name']);
  });

  it('updateWorkspace: any member but a read-only one; 404, then 403, then 422; no emoji clears it', async () => {
    const unknown = await send('PUT', '/open/workspaces/99', 'updateWorkspace', sb().tokens.readonly, {});
    expect(unknown.status).toBe(404);
    const readonly = await send('PUT', '/open/workspaces/1', 'updateWorkspace', sb().tokens.readonly, {});
    expect(readonly.status).toBe(403);
    expect(readonly.body.message).toBe('You cannot update this workspace.');
    const outsider = await send('PUT', '/open/workspaces/1', 'updateWorkspace', sb().tokens.outsider, { name: 'x' });
    expect(outsider.body.message).toBe('You cannot update this workspace.');
    expect((await send('PUT', '/open/workspaces/1', 'updateWorkspace', sb().tokens.read, {})).status).toBe(403);
    expect((await send('PUT', '/open/workspaces/1', 'updateWorkspace', sb().tokens.editor!, {})).status).toBe(422);
    // Alice is an ordinary member of workspace 3: she may rename it.
    const renamed = await send('PUT', '/open/workspaces/3', 'updateWorkspace', sb().tokens.all, { name: 'Lab' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.workspace).toMatchObject({ id: 3, name: 'Lab', icon: '', is_admin: false });
    expect(renamed.body.workspace.users).toHaveLength(2);
  });

  it('deleteWorkspace: admins only, never the last workspace; afterwards 404 and gone from the list', async () => {
    const notAdmin = 'You need to be an admin of this workspace to do this.';
    expect((await send('DELETE', '/open/workspaces/3', 'deleteWorkspace', sb().tokens.all)).body.message).toBe(
      notAdmin,
    );
    expect((await send('DELETE', '/open/workspaces/1', 'deleteWorkspace', sb().tokens.editor!)).body.message).toBe(
      notAdmin,
    );
    expect(
      (await send('DELETE', '/open/workspaces/1', 'deleteWorkspace', sb().tokens.workspacesRead!)).body.message,
    ).toBe(notAdmin);
    const id = (
      await send('POST', '/open/workspaces/create', 'createWorkspace', sb().tokens.outsider, { name: 'Temp' })
    ).body.workspace_id;
    const deleted = await send('DELETE', `/open/workspaces/${id}`, 'deleteWorkspace', sb().tokens.outsider);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ type: 'success', message: 'Workspace successfully deleted.', workspace_id: id });
    expect(await ids(sb().tokens.outsider)).not.toContain(id);
    expect(
      (await send('PUT', `/open/workspaces/${id}`, 'updateWorkspace', sb().tokens.outsider, { name: 'x' })).status,
    ).toBe(404);
    expect((await send('GET', `/open/workspaces/${id}/users`, 'listWorkspaceUsers', sb().tokens.outsider)).status).toBe(
      404,
    );
  });
});

describe('the last workspace', () => {
  it('deleteWorkspace: an admin may not delete their last workspace', async () => {
    // Rita made the admin of Acme, her only workspace.
    const seed = defaultSeed({ submissionsPerForm: 1 });
    seed.users.find((u) => u.id === 3)!.memberships = [{ workspaceId: 1, role: 'admin' }];
    const sb = await sandbox({ seed });
    try {
      const last = await call(sb.baseUrl, 'DELETE', '/open/workspaces/1', {
        token: sb.tokens.readonly,
        operationId: 'deleteWorkspace',
      });
      expect(last.status).toBe(403);
      expect(last.body.message).toBe('You cannot delete your last workspace. Delete your account instead.');
    } finally {
      await sb.close();
    }
  });
});
