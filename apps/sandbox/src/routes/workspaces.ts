// The workspaces and their members: listWorkspaces, createWorkspace, updateWorkspace,
// deleteWorkspace, listWorkspaceUsers and listWorkspaceInvites, observed at aee613da (the
// published contract does not show them). Who may do what is WorkspacePolicy.php's: its messages
// are the 403 bodies, and where the policy answers false the body is the framework's.
import type { Context, Hono } from 'hono';
import {
  authorise,
  caller,
  jsonBody,
  pathId,
  requireAbility,
  roleIn,
  validateBody,
  type Caller,
  type SandboxContext,
} from '../context.js';
import { HttpError, forbidden, json, notFound } from '../http.js';
import type { Workspace } from '../model.js';
import { serve } from '../operations.js';
import { workspaceInvite, workspaceMember, workspaceView } from '../workspace-presenters.js';

/** The workspace the `{workspaceId}` segment names, or its 404. */
export function workspaceOr404(ctx: SandboxContext, c: Context): Workspace {
  const named = pathId(ctx.rules.ids.integer(c.req.param('workspaceId')!), 'Workspace', 0);
  const id = 'id' in named ? named.id : 0;
  const workspace = ctx.store.workspaces.get(id);
  if (!workspace) throw notFound('Workspace', id);
  return workspace;
}

export const denied = (message: string) => new HttpError(403, { message });
export const holds = (who: Caller, ability: string) => (who.token.abilities as readonly string[]).includes(ability);

/** WorkspacePolicy::adminAction: the token holds workspaces-write and its user is an admin there. */
export function adminAction(who: Caller, workspaceId: number): boolean {
  return holds(who, 'workspaces-write') && roleIn(who.user, workspaceId) === 'admin';
}

/** The user's plan for the workspace limit: Pro when they administer a Pro workspace (the service's billing owner). */
function userTier(ctx: SandboxContext, who: Caller): 'pro' | 'free' {
  return who.user.memberships.some((m) => m.role === 'admin' && ctx.store.workspaces.get(m.workspaceId)?.plan === 'pro')
    ? 'pro'
    : 'free';
}

const WORKSPACE_LIMIT = { pro: null, free: 1 } as const;

export function workspaceRoutes(app: Hono, ctx: SandboxContext): void {
  const view = (who: Caller, w: Workspace, loaded: { users: boolean; pivot: boolean }) =>
    workspaceView(
      w,
      ctx.store.membersOf(w.id),
      { user: who.user, role: roleIn(who.user, w.id) ?? 'user' },
      ctx.now(),
      loaded,
    );

  // WorkspacePolicy.php:53-71: the plan's workspace limit first, then the ability; then the body.
  serve(app, 'createWorkspace', async (c) => {
    const who = caller(ctx, c);
    const tier = userTier(ctx, who);
    const limit = WORKSPACE_LIMIT[tier];
    if (limit !== null && ctx.store.workspacesOf(who.user).length >= limit)
      throw denied(
        `You have reached the workspace limit for ${tier === 'pro' ? 'Pro' : 'Free'} plan. Upgrade to create additional workspaces.`,
      );
    requireAbility(ctx, who, 'createWorkspace');
    const body = await validateBody(ctx, await jsonBody(c, ctx.rules.notAnObjectBody), 'createWorkspace');
    const workspace = ctx.store.addWorkspace(
      { name: body.name, plan: 'free', icon: body.emoji ? String(body.emoji) : '', createdAt: ctx.now() },
      who.user,
    );
    return json(200, {
      type: 'success',
      message: 'Workspace created.',
      workspace_id: workspace.id,
      workspace: view(who, workspace, { users: false, pivot: false }),
    });
  });

  // WorkspacePolicy.php:78-89: any member who is not read-only; 404, then 403, then the body.
  serve(app, 'updateWorkspace', async (c) => {
    const who = caller(ctx, c);
    const workspace = workspaceOr404(ctx, c);
    const role = roleIn(who.user, workspace.id);
    if (!role || role === 'readonly') throw denied('You cannot update this workspace.');
    if (!holds(who, 'workspaces-write')) throw forbidden();
    const body = await validateBody(ctx, await jsonBody(c, ctx.rules.notAnObjectBody), 'updateWorkspace');
    // Looked up again after the body was read; an update without `emoji` clears it.
    const current = workspaceOr404(ctx, c);
    current.name = body.name;
    current.icon = body.emoji ? String(body.emoji) : '';
    return json(200, {
      type: 'success',
      message: 'Workspace updated.',
      workspace: view(who, current, { users: true, pivot: false }),
    });
  });

  // WorkspacePolicy.php:96-107: an admin (with workspaces-write) who keeps another workspace.
  serve(app, 'deleteWorkspace', (c) => {
    const who = caller(ctx, c);
    const workspace = workspaceOr404(ctx, c);
    if (!adminAction(who, workspace.id)) throw denied('You need to be an admin of this workspace to do this.');
    if (ctx.store.workspacesOf(who.user).length <= 1)
      throw denied('You cannot delete your last workspace. Delete your account instead.');
    ctx.store.deleteWorkspace(workspace.id);
    return json(200, { type: 'success', message: 'Workspace successfully deleted.', workspace_id: workspace.id });
  });

  // WorkspacePolicy.php:22-30: the ability alone; the list holds the user's workspaces only.
  serve(app, 'listWorkspaces', (c) => {
    const who = caller(ctx, c);
    requireAbility(ctx, who, 'listWorkspaces');
    const body = ctx.store.workspacesOf(who.user).map((w) => {
      const members = ctx.store.membersOf(w.id);
      const viewer = { user: who.user, role: roleIn(who.user, w.id)! };
      return workspaceView(w, members, viewer, ctx.now(), { users: true, pivot: true });
    });
    return json(200, body);
  });

  // WorkspacePolicy.php:37-46: any member, read-only included.
  serve(app, 'listWorkspaceUsers', (c) => {
    const who = caller(ctx, c);
    const workspace = workspaceOr404(ctx, c);
    authorise(ctx, who, workspace.id, 'listWorkspaceUsers');
    return json(
      200,
      ctx.store.membersOf(workspace.id).map((m) => workspaceMember(workspace.id, m)),
    );
  });

  // WorkspacePolicy.php:163-176: admins only.
  serve(app, 'listWorkspaceInvites', (c) => {
    const who = caller(ctx, c);
    const workspace = workspaceOr404(ctx, c);
    authorise(ctx, who, workspace.id, 'listWorkspaceInvites', { admin: true });
    return json(200, ctx.store.invitesOf(workspace.id).map(workspaceInvite));
  });
}
