// The workspace reads over HTTP, in both behaviours: listWorkspaces (the token's user's workspaces
// with every member and the user's own membership), listWorkspaceUsers (any member, with
// workspaces-read) and listWorkspaceInvites (admins, with workspaces-write); every answer is
// validated against the spec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
beforeAll(async () => {
  sbs = await sideBySide();
});
afterAll(() => sbs.close());

const behaviours = ['contract', 'observed'] as const;
const get = (sb: SandboxHandle, path: string, token: string | undefined, operationId: string) =>
  call(sb.baseUrl, 'GET', path, { ...(token ? { token } : {}), operationId });

describe.each(behaviours)('%s', (which) => {
  const sb = () => sbs[which];

  it('listWorkspaces: the user’s workspaces only, with members and the user’s own role', async () => {
    const { status, body } = await get(sb(), '/open/workspaces', sb().tokens.all, 'listWorkspaces');
    expect(status).toBe(200);
    expect(body.map((w: { id: number }) => w.id)).toEqual([1, 2, 3]);
    const [acme, side, bobs] = body;
    expect(acme).toMatchObject({ name: 'Acme', plan_tier: 'pro', is_admin: true, is_readonly: false, users_count: 3 });
    expect(acme.pivot).toEqual({ workspace_id: 1, user_id: 1, role: 'admin' });
    expect(acme.users.map((u: { pivot: { role: string } }) => u.pivot.role)).toEqual(['admin', 'readonly', 'user']);
    expect(side).toMatchObject({ plan_tier: 'free', limits: { workspace_count: 1 }, users_count: 2 });
    expect(bobs).toMatchObject({ is_admin: false, is_readonly: false, pivot: { role: 'user' } });
    const rita = (await get(sb(), '/open/workspaces', sb().tokens.readonly, 'listWorkspaces')).body;
    expect(rita).toHaveLength(1);
    expect(rita[0]).toMatchObject({ id: 1, is_readonly: true, is_admin: false });
  });

  it('listWorkspaces: needs workspaces-read, nothing else', async () => {
    for (const name of ['workspacesRead'] as const)
      expect((await get(sb(), '/open/workspaces', sb().tokens[name], 'listWorkspaces')).status).toBe(200);
    for (const name of ['read', 'write', 'none', 'workspacesWrite'] as const)
      expect((await get(sb(), '/open/workspaces', sb().tokens[name], 'listWorkspaces')).status, name).toBe(403);
    expect((await get(sb(), '/open/workspaces', undefined, 'listWorkspaces')).status).toBe(401);
  });

  it('listWorkspaceUsers: every member of any role may list them, with workspaces-read', async () => {
    const path = '/open/workspaces/1/users';
    const { status, body } = await get(sb(), path, sb().tokens.readonly, 'listWorkspaceUsers');
    expect(status).toBe(200);
    expect(
      body.map((u: { id: number; email: string; pivot: { role: string } }) => [u.id, u.email, u.pivot.role]),
    ).toEqual([
      [1, 'alice@example.com', 'admin'],
      [3, 'rita@example.com', 'readonly'],
      [4, 'eddie@example.com', 'user'],
    ]);
    expect(body[0].photo_url).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}\.jpg\?s=200&d=mp$/);
    for (const name of ['editor', 'workspacesRead'] as const)
      expect((await get(sb(), path, sb().tokens[name], 'listWorkspaceUsers')).status, name).toBe(200);
    for (const name of ['outsider', 'read', 'workspacesWrite', 'none'] as const)
      expect((await get(sb(), path, sb().tokens[name], 'listWorkspaceUsers')).status, name).toBe(403);
    expect((await get(sb(), '/open/workspaces/99/users', sb().tokens.all, 'listWorkspaceUsers')).status).toBe(404);
    expect((await get(sb(), path, undefined, 'listWorkspaceUsers')).status).toBe(401);
  });

  it('listWorkspaceInvites: admins only, with workspaces-write; pending, accepted and expired alike', async () => {
    const path = '/open/workspaces/1/invites';
    const { status, body } = await get(sb(), path, sb().tokens.workspacesWrite, 'listWorkspaceInvites');
    expect(status).toBe(200);
    expect(body.map((i: { email: string; status: string }) => [i.email, i.status])).toEqual([
      ['newcomer@example.com', 'pending'],
      ['joined@example.com', 'accepted'],
      ['late@example.com', 'pending'],
    ]);
    expect(body[0]).not.toHaveProperty('token');
    expect(body[0].valid_until).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // Alice is an ordinary member of workspace 3, Eddie of 1, Rita read-only in 1: none may read them.
    expect((await get(sb(), '/open/workspaces/3/invites', sb().tokens.all, 'listWorkspaceInvites')).status).toBe(403);
    for (const name of ['editor', 'readonly', 'outsider', 'workspacesRead'] as const)
      expect((await get(sb(), path, sb().tokens[name], 'listWorkspaceInvites')).status, name).toBe(403);
    expect((await get(sb(), '/open/workspaces/99/invites', sb().tokens.all, 'listWorkspaceInvites')).status).toBe(404);
  });
});
