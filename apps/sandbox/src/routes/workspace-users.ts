// The member and invitation writes: addWorkspaceUser, updateWorkspaceUserRole,
// removeWorkspaceUser, leaveWorkspace, resendWorkspaceInvite and cancelWorkspaceInvite, observed
// at aee613da (WorkspaceUserController.php, UserInviteController.php; the published contract does
// not show them). Refusals of the invitation, after the permission, are 400
// `{type: "error", success: false, message}` (Controller.php:25-30).
import type { Context, Hono } from 'hono';
import {
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
import type { Invite, Role, User } from '../model.js';
import { serve } from '../operations.js';
import { laravelTimestamp } from '../presenters.js';
import { emailOf } from '../workspace-presenters.js';
import { adminAction, denied, workspaceOr404 } from './workspaces.js';

const DAY = 24 * 60 * 60 * 1000;
const NOT_ADMIN = 'You need to be an admin of this workspace to do this.';

/** The user the `{userId}` segment names, or its 404 (the framework's, before any permission). */
function userOr404(ctx: SandboxContext, c: Context): User {
  const named = pathId(ctx.rules.ids.integer(c.req.param('userId')!), 'User', 0);
  const id = 'id' in named ? named.id : 0;
  const user = ctx.store.users.get(id);
  if (!user) throw notFound('User', id);
  return user;
}

/** The policy's adminAction answered false: the framework's 403. */
function requireAdmin(who: Caller, workspaceId: number): void {
  if (!adminAction(who, workspaceId)) throw forbidden();
}

/** A user left without any workspace is given "My Workspace", as its admin (EnsureUserHasWorkspace.php:16-33). */
function ensureUserHasWorkspace(ctx: SandboxContext, user: User): void {
  if (user.memberships.length === 0)
    ctx.store.addWorkspace({ name: 'My Workspace', plan: 'free', icon: '', createdAt: ctx.now() }, user);
}

const leave = (user: User, workspaceId: number) => {
  user.memberships = user.memberships.filter((m) => m.workspaceId !== workspaceId);
};

/** The invitation of the workspace `{inviteId}` names, or the 400 the service answers. */
function pendingInvite(ctx: SandboxContext, c: Context, workspaceId: number): Invite {
  const raw = c.req.param('inviteId')!;
  const invite = /^\d+$/.test(raw) ? ctx.store.invites.get(Number(raw)) : undefined;
  const refuse = (message: string) => new HttpError(400, { type: 'error', success: false, message });
  if (!invite || invite.workspaceId !== workspaceId) throw refuse('Invite not found for this workspace.');
  if (invite.status === 'accepted') throw refuse('Invite already accepted.');
  return invite;
}

export function workspaceUserRoutes(app: Hono, ctx: SandboxContext): void {
  // WorkspacePolicy.php:129-156 (admin with workspaces-write, then the plan's invite_user, for
  // existing users too), then the body; an email with a pending, unexpired invitation is 400.
  serve(app, 'addWorkspaceUser', async (c) => {
    const who = caller(ctx, c);
    const workspace = workspaceOr404(ctx, c);
    if (!adminAction(who, workspace.id)) throw denied(NOT_ADMIN);
    if (workspace.plan !== 'pro') throw denied('A Pro plan is required to invite users.');
    const body = await validateBody(ctx, await jsonBody(c, ctx.rules.notAnObjectBody), 'addWorkspaceUser');
    const email = String(body.email);
    const role = body.role as Role;
    // Emails compare as the service's database does: without regard to case.
    const sameEmail = (other: string) => other.toLowerCase() === email.toLowerCase();
    const user = [...ctx.store.users.values()].find((u) => sameEmail(emailOf(u)));
    if (user) {
      if (roleIn(user, workspace.id)) return json(200, { type: 'success', message: 'User is already in workspace.' });
      user.memberships.push({ workspaceId: workspace.id, role });
      return json(200, { type: 'success', message: 'User has been successfully added to workspace.' });
    }
    const now = ctx.now();
    const pending = ctx.store
      .invitesOf(workspace.id)
      .some((i) => sameEmail(i.email) && i.status === 'pending' && i.validUntil > now);
    if (pending) throw new HttpError(400, { type: 'error', message: 'User has already been invited.' });
    const invite = ctx.store.addInvite({
      workspaceId: workspace.id,
      email,
      role,
      status: 'pending',
      validUntil: now + 7 * DAY,
      createdAt: now,
    });
    // As the service sends it: the attributes it set, before the stored default `status` is read back.
    return json(200, {
      type: 'success',
      message: 'Registration invitation email sent to user.',
      invite: {
        email,
        role,
        workspace_id: workspace.id,
        valid_until: laravelTimestamp(invite.validUntil),
        updated_at: laravelTimestamp(now),
        created_at: laravelTimestamp(now),
        id: invite.id,
      },
    });
  });

  // 404 for the workspace or user, then adminAction (403), then the membership (404 with an
  // empty message), then the body.
  serve(app, 'updateWorkspaceUserRole', async (c) => {
    const who = caller(ctx, c);
    const workspace = workspaceOr404(ctx, c);
    const user = userOr404(ctx, c);
    requireAdmin(who, workspace.id);
    if (!roleIn(user, workspace.id)) throw new HttpError(404, { message: '' });
    const body = await validateBody(ctx, await jsonBody(c, ctx.rules.notAnObjectBody), 'updateWorkspaceUserRole');
    const membership = user.memberships.find((m) => m.workspaceId === workspace.id);
    if (membership) membership.role = body.role as Role;
    return json(200, { type: 'success', message: 'User role changed successfully.' });
  });

  serve(app, 'removeWorkspaceUser', (c) => {
    const who = caller(ctx, c);
    const workspace = workspaceOr404(ctx, c);
    const user = userOr404(ctx, c);
    requireAdmin(who, workspace.id);
    if (!roleIn(user, workspace.id)) throw new HttpError(404, { message: '' });
    leave(user, workspace.id);
    ensureUserHasWorkspace(ctx, user);
    return json(200, { type: 'success', message: 'User removed from workspace successfully.' });
  });

  // WorkspacePolicy.php:37-46 (view): workspaces-read and a member, of any role.
  serve(app, 'leaveWorkspace', (c) => {
    const who = caller(ctx, c);
    const workspace = workspaceOr404(ctx, c);
    if (!roleIn(who.user, workspace.id)) throw forbidden();
    requireAbility(ctx, who, 'leaveWorkspace');
    leave(who.user, workspace.id);
    ensureUserHasWorkspace(ctx, who.user);
    return json(200, { type: 'success', message: 'You have left the workspace successfully.' });
  });

  serve(app, 'resendWorkspaceInvite', (c) => {
    const who = caller(ctx, c);
    const workspace = workspaceOr404(ctx, c);
    requireAdmin(who, workspace.id);
    pendingInvite(ctx, c, workspace.id);
    return json(200, { type: 'success', message: 'Invite email resent successfully.' });
  });

  serve(app, 'cancelWorkspaceInvite', (c) => {
    const who = caller(ctx, c);
    const workspace = workspaceOr404(ctx, c);
    requireAdmin(who, workspace.id);
    ctx.store.invites.delete(pendingInvite(ctx, c, workspace.id).id);
    return json(200, { type: 'success', message: 'Invite deleted successfully.' });
  });
}
