// Workspaces, their members and invitations as the service shows them (WorkspaceResource.php:49-67,
// WorkspaceHelper.php:13-21, User.php:66-96, UserInvite.php at aee613da). The published contract
// does not show these operations, so the spec's observed shapes are the only ones: no rule seam.
import { createHash } from 'node:crypto';
import type { Invite, Plan, Role, User, Workspace } from './model.js';
import { laravelTimestamp, sqlTime } from './presenters.js';

type Body = Record<string, unknown>;
export interface Member {
  user: User;
  role: Role;
}

/** What each plan gives a workspace: the service's plan features and limits, as far as the spec names them. */
const PLAN_FACTS: Record<Plan, { max_file_size: number; features: string[]; limits: Record<string, number | null> }> = {
  pro: { max_file_size: 50, features: ['invite_user'], limits: { workspace_count: null } },
  free: { max_file_size: 10, features: [], limits: { workspace_count: 1 } },
};

export const emailOf = (user: User): string => user.email ?? `user${user.id}@example.com`;

const pivot = (workspaceId: number, member: Member) => ({
  workspace_id: workspaceId,
  user_id: member.user.id,
  role: member.role,
});

/** A member's user record with their role in `pivot`; the avatar is Gravatar's for the address. */
export function workspaceMember(workspaceId: number, member: Member): Body {
  const email = emailOf(member.user);
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return {
    id: member.user.id,
    name: member.user.name,
    email,
    photo_url: `https://www.gravatar.com/avatar/${hash}.jpg?s=200&d=mp`,
    is_blocked: false,
    pivot: pivot(workspaceId, member),
  };
}

/**
 * A workspace as `viewer` sees it. `loaded`: what the service has loaded with it and so sends:
 * every member (`users`: listWorkspaces and updateWorkspace) and the viewer's membership
 * (`pivot`: listWorkspaces only); a created workspace has neither.
 */
export function workspaceView(
  workspace: Workspace,
  members: readonly Member[],
  viewer: Member,
  createdDefault: number,
  loaded: { users: boolean; pivot: boolean },
): Body {
  const facts = PLAN_FACTS[workspace.plan];
  const created = laravelTimestamp(workspace.createdAt ?? createdDefault);
  return {
    id: workspace.id,
    name: workspace.name,
    icon: workspace.icon ?? '',
    created_at: created,
    updated_at: created,
    max_file_size: facts.max_file_size,
    is_readonly: viewer.role === 'readonly',
    is_admin: viewer.role === 'admin',
    users_count: members.length,
    plan_tier: workspace.plan,
    features: facts.features,
    limits: facts.limits,
    required_tiers: { invite_user: 'pro' },
    is_grandfathered: false,
    ...(loaded.users ? { users: members.map((m) => workspaceMember(workspace.id, m)) } : {}),
    ...(loaded.pivot ? { pivot: pivot(workspace.id, viewer) } : {}),
  };
}

/** An invitation: every column but its secret token. */
export function workspaceInvite(invite: Invite): Body {
  const sent = laravelTimestamp(invite.createdAt);
  return {
    id: invite.id,
    workspace_id: invite.workspaceId,
    email: invite.email,
    role: invite.role,
    status: invite.status,
    valid_until: sqlTime(invite.validUntil),
    created_at: sent,
    updated_at: sent,
  };
}
