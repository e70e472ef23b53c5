// A new user's trial: "no token without workspaces-write (set FORMS_API_TOKEN_WITHOUT_FORMS_READ)"
// read as a wrong variable. The role named after what it lacks among the contract's abilities also
// lacks the workspace ones; the skip now says what the token carries.
import { afterEach, describe, expect, it } from 'vitest';
import { runLive, startSandboxCli, stopSandboxCli, tenantEnvironment } from './live-tenant.js';

afterEach(stopSandboxCli);

describe('a 403 check without its token', () => {
  it('names the variable and what that token carries', async () => {
    const sandbox = await startSandboxCli([]);
    const env = Object.fromEntries(
      Object.entries(await tenantEnvironment(sandbox)).filter(([key]) => !key.startsWith('FORMS_API_TOKEN_')),
    );
    const run = await runLive(env, ['--no-proxy', '--explore-budget', '0', '--operation', 'listWorkspaceUsers']);
    expect(run.report.results.find((r) => r.name === 'token without the ability: 403')?.reason).toBe(
      'no token without workspaces-read (set FORMS_API_TOKEN_WITHOUT_FORMS_READ: a token with forms-write, manage-integrations and nothing else)',
    );
  }, 120_000);
});
