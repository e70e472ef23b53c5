// The member and invitation writes over HTTP, in both behaviours (a fresh sandbox each, since
// they change the seed's memberships): add or invite, change a role, remove, leave, resend and
// cancel an invitation, each with WorkspacePolicy's permission and the controllers' order of
// checks and bodies. Every answer is validated against the spec.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, sandbox } from './support.js';

describe.each(['contract', 'observed'] as const)('%s', (behaviour) => {
  let sb: SandboxHandle;
  beforeEach(async () => {
    sb = await sandbox({ behaviour });
  });
  afterEach(() => sb.close());

  const send = (method: string, path: string, operationId: string, token: string, body?: unknown) =>
    call(sb.baseUrl, method, path, { token, operationId, ...(body === undefined ? {} : { body }) });
  const roles = async (workspaceId: number) =>
    Object.fromEntries(
      (await send('GET', `/open/workspaces/${workspaceId}/users`, 'listWorkspaceUsers', sb.tokens.all)).body.map(
        (u: { email: string; pivot: { role: string } }) => [u.email, u.pivot.role],
      ),
    );

  it('addWorkspaceUser: adds an existing user, says when one is already there, invites anyone else once', async () => {
    const add = (body: unknown, token = sb.tokens.all, workspaceId = 1) =>
      send('POST', `/open/workspaces/${workspaceId}/users/add`, 'addWorkspaceUser', token, body);
    const added = await add({ email: 'BOB@example.com', role: 'readonly' });
    expect(added.body).toEqual({ type: 'success', message: 'User has been successfully added to workspace.' });
    expect((await roles(1))['bob@example.com']).toBe('readonly');
    const again = await add({ email: 'bob@example.com', role: 'admin' });
    expect(again.body.message).toBe('User is already in workspace.');
    expect((await roles(1))['bob@example.com']).toBe('readonly');
    const invited = await add({ email: 'new.person@example.com', role: 'user' });
    expect(invited.body).toMatchObject({
      type: 'success',
      message: 'Registration invitation email sent to user.',
      invite: { email: 'new.person@example.com', role: 'user', workspace_id: 1 },
    });
    expect(invited.body.invite).not.toHaveProperty('status');
    const twice = await add({ email: 'new.person@example.com', role: 'user' });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ type: 'error', message: 'User has already been invited.' });
    // The seed's expired invitation does not stop a new one.
    expect((await add({ email: 'late@example.com', role: 'user' })).status).toBe(200);
  });

  it('addWorkspaceUser: 404, then the admin (with workspaces-write), then the plan, then the body', async () => {
    const add = (token: string, workspaceId: number, body: unknown = {}) =>
      send('POST', `/open/workspaces/${workspaceId}/users/add`, 'addWorkspaceUser', token, body);
    expect((await add(sb.tokens.all, 99)).status).toBe(404);
    const notAdmin = 'You need to be an admin of this workspace to do this.';
    for (const token of [sb.tokens.editor!, sb.tokens.readonly, sb.tokens.workspacesRead!, sb.tokens.all])
      expect((await add(token, token === sb.tokens.all ? 3 : 1)).body.message).toBe(notAdmin);
    expect((await add(sb.tokens.all, 2)).body.message).toBe('A Pro plan is required to invite users.');
    const invalid = await add(sb.tokens.workspacesWrite!, 1, { email: 'not an email', role: 'owner' });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['email', 'role']);
  });

  it('updateWorkspaceUserRole and removeWorkspaceUser: admins only; a non-member is 404 with an empty message', async () => {
    const role = (token: string, path: string, body: unknown = { role: 'admin' }) =>
      send('PUT', path, 'updateWorkspaceUserRole', token, body);
    expect((await role(sb.tokens.all, '/open/workspaces/1/users/999/update-role')).body.message).toBe(
      'No query results for model [App\\Models\\User] 999',
    );
    expect((await role(sb.tokens.editor!, '/open/workspaces/1/users/3/update-role')).status).toBe(403);
    const outsider = await role(sb.tokens.all, '/open/workspaces/1/users/2/update-role');
    expect(outsider.status).toBe(404);
    expect(outsider.body).toEqual({ message: '' });
    expect((await role(sb.tokens.all, '/open/workspaces/1/users/3/update-role', { role: 'owner' })).status).toBe(422);
    const changed = await role(sb.tokens.all, '/open/workspaces/1/users/3/update-role');
    expect(changed.body).toEqual({ type: 'success', message: 'User role changed successfully.' });
    expect((await roles(1))['rita@example.com']).toBe('admin');

    const remove = (token: string, path: string) => send('DELETE', path, 'removeWorkspaceUser', token);
    expect((await remove(sb.tokens.readonly, '/open/workspaces/1/users/4/remove')).status).toBe(200);
    expect(await roles(1)).not.toHaveProperty('eddie@example.com');
    expect((await remove(sb.tokens.all, '/open/workspaces/1/users/4/remove')).body).toEqual({ message: '' });
    // Eddie, left without a workspace, is given "My Workspace" of which he is admin.
    const eddies = (await send('GET', '/open/workspaces', 'listWorkspaces', sb.tokens.editor!)).body;
    expect(eddies).toHaveLength(1);
    expect(eddies[0]).toMatchObject({ name: 'My Workspace', is_admin: true });
  });

  it('leaveWorkspace: any member with workspaces-read; afterwards the workspace refuses the token', async () => {
    const leave = (token: string, workspaceId: number) =>
      send('POST', `/open/workspaces/${workspaceId}/leave`, 'leaveWorkspace', token);
    expect((await leave(sb.tokens.outsider, 1)).status).toBe(403);
    expect((await leave(sb.tokens.workspacesWrite!, 3)).status).toBe(403);
    const left = await leave(sb.tokens.all, 3);
    expect(left.body).toEqual({ type: 'success', message: 'You have left the workspace successfully.' });
    expect((await send('GET', '/open/workspaces/3/users', 'listWorkspaceUsers', sb.tokens.all)).status).toBe(403);
    expect((await leave(sb.tokens.all, 3)).status).toBe(403);
  });

  it('resendWorkspaceInvite and cancelWorkspaceInvite: admins only, pending invitations of the workspace only', async () => {
    for (const [method, action, operationId, message] of [
      ['POST', 'resend', 'resendWorkspaceInvite', 'Invite email resent successfully.'],
      ['DELETE', 'cancel', 'cancelWorkspaceInvite', 'Invite deleted successfully.'],
    ] as const) {
      const act = (token: string, workspaceId: number, inviteId: number | string) =>
        send(method, `/open/workspaces/${workspaceId}/invites/${inviteId}/${action}`, operationId, token);
      expect((await act(sb.tokens.all, 99, 1)).status).toBe(404);
      expect((await act(sb.tokens.editor!, 1, 1)).status).toBe(403);
      expect((await act(sb.tokens.workspacesRead!, 1, 1)).status).toBe(403);
      const refused = (text: string) => ({ type: 'error', success: false, message: text });
      expect((await act(sb.tokens.all, 1, 4)).body).toEqual(refused('Invite not found for this workspace.'));
      expect((await act(sb.tokens.all, 1, 'x')).body).toEqual(refused('Invite not found for this workspace.'));
      expect((await act(sb.tokens.all, 1, 2)).body).toEqual(refused('Invite already accepted.'));
      const done = await act(sb.tokens.all, 1, 1);
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ type: 'success', message });
    }
    const left = (await send('GET', '/open/workspaces/1/invites', 'listWorkspaceInvites', sb.tokens.all)).body;
    expect(left.map((i: { id: number }) => i.id)).toEqual([2, 3]);
  });
});
