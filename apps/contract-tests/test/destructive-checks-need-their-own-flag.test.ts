// Checks that change the user's workspaces (delete one, add and remove a member) run on a tenant
// only with --write --destructive, each on something the run made: the account the settings
// name is added and removed again, so the workspace's members end as they began.
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/cli-args.js';
import { runLive, startSandboxCli, stopSandboxCli, tenantEnvironment, type StartedSandbox } from './live-tenant.js';

afterEach(stopSandboxCli);

const MEMBER_CHECKS = [
  'createWorkspace',
  'updateWorkspace',
  'deleteWorkspace',
  'removeWorkspaceUser',
  'updateWorkspaceUserRole',
  'leaveWorkspace',
];
const only = MEMBER_CHECKS.flatMap((op) => ['--operation', op]);

async function membersOf(sandbox: StartedSandbox, workspaceId: string): Promise<string[]> {
  const answer = await fetch(`${sandbox.baseUrl}/open/workspaces/${workspaceId}/users`, {
    headers: { authorization: `Bearer ${sandbox.tokens.all}` },
  });
  return ((await answer.json()) as Array<{ email: string }>).map((m) => m.email).sort();
}

const happyPaths = (run: Awaited<ReturnType<typeof runLive>>) =>
  run.report.results
    .filter((r) => r.name === 'happy path: 200 and a valid body')
    .map((r) => `${r.operationId}: ${r.outcome}${r.outcome === 'skipped' ? ` (${r.reason})` : ''}`)
    .sort();

describe('destructive checks', () => {
  it('--destructive is refused without --write', () => {
    const parsed = parseCommandLine(['--destructive'], {});
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error.message).toContain('--destructive needs --write');
  });

  it('are skipped with --write alone, and run with --destructive on an account the run adds and removes', async () => {
    const sandbox = await startSandboxCli([]);
    const env = await tenantEnvironment(sandbox);
    const workspaceId = env.FORMS_API_WORKSPACE_ID!;
    const before = await membersOf(sandbox, workspaceId);
    // An account of the seed that is not a member of the workspace (the seed's outsider).
    const outsider = 'bob@example.com';
    expect(before).not.toContain(outsider);

    const writeOnly = await runLive({ ...env, FORMS_API_MEMBER_EMAIL: outsider }, ['--no-proxy', ...only]);
    expect(
      writeOnly.report.results
        .filter((r) => r.outcome === 'failed')
        .map((r) => `${r.operationId} › ${r.name}: ${r.reason}`),
    ).toEqual([]);
    expect(writeOnly.code).toBe(0);
    expect(happyPaths(writeOnly)).toEqual(
      MEMBER_CHECKS.map(
        (op) =>
          `${op}: skipped (changes the user's workspaces (on temporary ones only): run with --write --destructive to include it)`,
      ).sort(),
    );

    const destructive = await runLive({ ...env, FORMS_API_MEMBER_EMAIL: outsider }, [
      '--destructive',
      '--no-proxy',
      ...only,
    ]);
    expect(happyPaths(destructive)).toEqual([
      'createWorkspace: passed',
      'deleteWorkspace: passed',
      // The token's user could not undo leaving a workspace: never tried on a tenant.
      "leaveWorkspace: skipped (leaving a workspace cannot be undone by the token's user: checked on the sandboxes)",
      'removeWorkspaceUser: passed',
      'updateWorkspace: passed',
      'updateWorkspaceUserRole: passed',
    ]);
    expect(destructive.code).toBe(0);
    expect(await membersOf(sandbox, workspaceId)).toEqual(before);
  }, 120_000);

  it('never act on an account that is already a member', async () => {
    const sandbox = await startSandboxCli([]);
    const env = await tenantEnvironment(sandbox);
    const before = await membersOf(sandbox, env.FORMS_API_WORKSPACE_ID!);
    const run = await runLive({ ...env, FORMS_API_MEMBER_EMAIL: before[0]! }, [
      '--destructive',
      '--no-proxy',
      '--operation',
      'removeWorkspaceUser',
    ]);
    expect(happyPaths(run)).toEqual([
      'removeWorkspaceUser: skipped (FORMS_API_MEMBER_EMAIL is already a member of workspace ' +
        `${env.FORMS_API_WORKSPACE_ID}: name an account that is not one)`,
    ]);
    expect(await membersOf(sandbox, env.FORMS_API_WORKSPACE_ID!)).toEqual(before);
  }, 120_000);
});
