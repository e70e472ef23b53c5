// removeWorkspaceUser, updateWorkspaceUserRole, leaveWorkspace and deleteWorkspace beyond the
// derived checks. A run cannot make an account, so the spec's links cannot give these a member to
// act on: with --destructive, the account FORMS_API_MEMBER_EMAIL names (never one already in the
// workspace) is added to the target's workspace, acted on, and removed again. Deleting runs on a
// workspace the run created. Leaving is checked on the sandboxes only: the token's user could not
// undo it on a tenant. Creating, renaming and deleting a workspace (one the run made) wait for the
// flag too.
import type { CheckContext } from '../check-context.js';
import { envVariableOf } from '../targets/settings.js';
import { handSuite, operationSender, setupFailed, type BasicCase } from './common.js';
import { removedMemberReadsNoMoreCheck } from './remove-workspace-user.js';
import type { Check } from './types.js';

type Path = Record<string, string | number>;

/** The id of the member with `email` in the workspace, if there is one. */
async function memberIdOf(ctx: CheckContext, workspaceId: number, email: string): Promise<number | undefined> {
  const listed = await operationSender('listWorkspaceUsers')(ctx, { path: { workspaceId } });
  const parsed = ctx.json(listed);
  if (listed.status !== 200 || !parsed.ok || !Array.isArray(parsed.value))
    return setupFailed(`listWorkspaceUsers answered ${listed.status ?? 'nothing'}`, listed);
  const member = (parsed.value as Array<{ id?: unknown; email?: unknown }>).find(
    (m) => typeof m.email === 'string' && m.email.toLowerCase() === email.toLowerCase(),
  );
  return typeof member?.id === 'number' ? member.id : undefined;
}

/** Adds the spare account to the target's workspace and registers its removal: the path of the member. */
async function temporaryMember(ctx: CheckContext): Promise<Path> {
  const setting = envVariableOf('memberEmail');
  const email = ctx.target.ids.memberEmail;
  if (!email) return ctx.skip(`no account to add and remove (set ${setting}: an account that is not a member)`);
  const { workspaceId } = ctx.target.ids;
  if ((await memberIdOf(ctx, workspaceId, email)) !== undefined)
    return ctx.skip(`${setting} is already a member of workspace ${workspaceId}: name an account that is not one`);
  const added = await operationSender('addWorkspaceUser')(ctx, {
    path: { workspaceId },
    body: { email, role: 'user' },
  });
  const parsed = ctx.json(added);
  const invite = parsed.ok ? (parsed.value as { invite?: { id?: unknown } }).invite : undefined;
  if (typeof invite?.id === 'number') {
    // No account has this email: the service invited it instead. Withdraw the invitation.
    await operationSender('cancelWorkspaceInvite')(ctx, { path: { workspaceId, inviteId: invite.id } });
    return setupFailed(
      `${setting} names no account of the tenant (it was invited instead; the invitation was cancelled)`,
      added,
    );
  }
  const userId = added.status === 200 ? await memberIdOf(ctx, workspaceId, email) : undefined;
  if (userId === undefined)
    return setupFailed(`could not add ${setting} with addWorkspaceUser (status ${added.status ?? 'none'})`, added);
  ctx.onCleanup(`removeWorkspaceUser ${workspaceId}/${userId}`, async () => {
    const removed = await operationSender('removeWorkspaceUser')(ctx, { path: { workspaceId, userId } });
    if (removed.status !== 200 && removed.status !== 404)
      setupFailed(`removeWorkspaceUser answered ${removed.status ?? 'nothing'}`, removed);
  });
  return { workspaceId, userId };
}

/** A workspace made for the check, which the token's user then leaves (sandboxes only). */
async function workspaceToLeave(ctx: CheckContext): Promise<Path> {
  if (!ctx.target.embedded)
    return ctx.skip("leaving a workspace cannot be undone by the token's user: checked on the sandboxes");
  const created = await operationSender('createWorkspace')(ctx, {});
  const parsed = ctx.json(created);
  const workspaceId = parsed.ok ? (parsed.value as { workspace_id?: unknown }).workspace_id : undefined;
  if (created.status !== 200 || typeof workspaceId !== 'number')
    return setupFailed(`could not create a workspace to leave (status ${created.status ?? 'none'})`, created);
  return { workspaceId };
}

const onMember: BasicCase = {
  writes: true,
  destructive: true,
  request: async (ctx) => ({ path: await temporaryMember(ctx) }),
};
const onOwnWorkspace: BasicCase = {
  writes: true,
  destructive: true,
  request: async (ctx) => ({ path: await workspaceToLeave(ctx) }),
};

/** A hand suite whose happy path and 403 are the same case (the 403 borrows the happy path's request). */
const bothOn = (operationId: string, basic: BasicCase, checks: readonly Check[] = []) =>
  handSuite({ operationId, happyPath: basic, withoutAbility: basic, checks });

export const removeWorkspaceUser = bothOn('removeWorkspaceUser', onMember, [removedMemberReadsNoMoreCheck]);
export const updateWorkspaceUserRole = bothOn('updateWorkspaceUserRole', onMember);
export const leaveWorkspace = bothOn('leaveWorkspace', onOwnWorkspace);
// The derived checks create, rename and delete a workspace of the run's own; a workspace's life
// waits for --destructive all the same.
const destructive: BasicCase = { destructive: true };
export const createWorkspace = bothOn('createWorkspace', destructive);
export const updateWorkspace = bothOn('updateWorkspace', destructive);
export const deleteWorkspace = bothOn('deleteWorkspace', destructive);
