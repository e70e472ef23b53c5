// The settings of a live run against an embedded sandbox, as a user's environment would hold them:
// its address, the all-abilities token, and the first form of a Pro workspace.
import type { SandboxHandle } from '@forms-api/sandbox';

export function tenantEnv(sandbox: SandboxHandle): Record<string, string> {
  const pro = sandbox.workspaces.find((w) => w.plan === 'pro' && w.forms.length > 0)!;
  return {
    FORMS_API_BASE_URL: sandbox.baseUrl,
    FORMS_API_TOKEN: sandbox.tokens.all!,
    FORMS_API_WORKSPACE_ID: String(pro.id),
    FORMS_API_FORM_ID: String(pro.forms[0]!.id),
  };
}
