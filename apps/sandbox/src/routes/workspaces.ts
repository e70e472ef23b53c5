// listWorkspaces, listWorkspaceUsers and listWorkspaceInvites: the workspace reads, observed at
// aee613da (the published contract does not show them; the spec states their abilities and roles).
import type { Context, Hono } from 'hono';
import { authorise, caller, pathId, requireAbility, roleIn, type SandboxContext } from '../context.js';
import { json, notFound } from '../http.js';
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

export function workspaceRoutes(app: Hono, ctx: SandboxContext): void {
  // WorkspacePolicy.php:22-30: the ability alone; the list holds the user's workspaces only.
  serve(app, 'listWorkspaces', (c) => {
    const who = caller(ctx, c);
    requireAbility(ctx, who, 'listWorkspaces');
    const body = ctx.store.workspacesOf(who.user).map((w) => {
      const members = ctx.store.membersOf(w.id);
      const viewer = { user: who.user, role: roleIn(who.user, w.id)! };
      return workspaceView(w, members, viewer, ctx.now(), true);
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
