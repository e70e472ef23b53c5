// The `sandbox` target: the embedded sandbox (@forms-api/sandbox) on a free port, private webhooks
// allowed, rate limit off; the live suite runs against it with writes on (it is disposable).
import {
  defaultSeed,
  startSandbox,
  type SandboxBehaviour,
  type SandboxFault,
  type SandboxHandle,
  type SeedFixture,
} from '@forms-api/sandbox';
import { createFormsClient } from '@forms-api/client';
import { ContractTestsError } from '../errors.js';
import type { DriftExpectation } from '../report/model.js';
import type { Target, TargetTokens } from './target.js';
import { tokenSecrets } from './target.js';
import { targetReceiver } from '../webhooks/receiver.js';

export { SANDBOX_FAULTS, type SandboxFault } from '@forms-api/sandbox';

/** Starts the sandbox (optionally with fault switches) and describes it as a live target. */
export async function startSandboxTarget(
  options: {
    name?: string;
    behaviour?: SandboxBehaviour;
    faults?: readonly SandboxFault[];
    expectsDrift?: DriftExpectation;
    /** Send the read-only requests again through `prism proxy` (default true; `--no-proxy` turns it off). */
    proxyPass?: boolean;
  } = {},
): Promise<Target> {
  const seed = withForeignWorkspace(defaultSeed());
  const sandbox: SandboxHandle = await startSandbox({
    port: 0,
    allowPrivateWebhooks: true,
    rateLimit: false,
    seed,
    ...(options.behaviour ? { behaviour: options.behaviour } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
  });
  const hooks = targetReceiver(0);
  try {
    const pro = sandbox.workspaces.find((w) => w.plan === 'pro' && w.forms.length > 0);
    const free = sandbox.workspaces.find((w) => w.plan === 'free' && w.forms.length > 0);
    if (!pro)
      throw new ContractTestsError(
        'sandbox_unavailable',
        'The sandbox seed has no Pro workspace with a form; start it with the default seed or a fixture that has one.',
      );
    const form = pro.forms[0]!;
    const captchaForm = sandbox.workspaces.flatMap((w) => w.forms).find((f) => f.captcha);
    const tokens: TargetTokens = {
      token: sandbox.tokens.all,
      ...(sandbox.tokens.withoutRead ? { tokenWithoutFormsRead: sandbox.tokens.withoutRead } : {}),
      ...(sandbox.tokens.withoutWrite ? { tokenWithoutFormsWrite: sandbox.tokens.withoutWrite } : {}),
      ...(sandbox.tokens.withoutIntegrations
        ? { tokenWithoutManageIntegrations: sandbox.tokens.withoutIntegrations }
        : {}),
      tokenWithoutAbilities: sandbox.tokens.none,
      tokenIntegrationsOnly: sandbox.tokens.integrations,
      // The seed's outsider: a user of other workspaces, no member of the target's.
      otherUserToken: sandbox.tokens.outsider,
    };
    const submissionId = await firstSubmissionId(sandbox.baseUrl, tokens.token, form.id);
    const secrets = tokenSecrets(tokens);
    secrets.set(sandbox.adminToken, '$FORMS_SANDBOX_ADMIN_TOKEN');
    return {
      name: options.name ?? 'sandbox',
      kind: 'live',
      embedded: true,
      baseUrl: sandbox.baseUrl,
      tokens,
      ids: {
        workspaceId: pro.id,
        formId: form.id,
        foreignFormId: FOREIGN_FORM_ID,
        foreignWorkspaceId: seed.forms.find((f) => f.id === FOREIGN_FORM_ID)!.workspaceId,
        formSlug: form.slug,
        ...(submissionId ? { submissionId } : {}),
        ...(free ? { freeFormId: free.forms[0]!.id } : {}),
        ...(captchaForm ? { captchaFormId: captchaForm.id } : {}),
        ...(memberEmailOf(seed, pro.id) ? { memberEmail: memberEmailOf(seed, pro.id)! } : {}),
      },
      write: true,
      destructive: true,
      webhooks: { receiver: hooks.receiver, receiverUrl: (port, path) => `http://127.0.0.1:${port}${path}` },
      proxyPass: options.proxyPass ?? true,
      // The contract's sandbox must show no drift; the service's, every entry of the ledger.
      ...(options.expectsDrift ? { expectsDrift: options.expectsDrift } : {}),
      secrets,
      stop: async () => {
        await hooks.close();
        await sandbox.close();
      },
    };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

/** The newest completed submission of the form (it answers every required field): the one the write checks borrow and restore. */
async function firstSubmissionId(baseUrl: string, token: string, formId: number): Promise<number | undefined> {
  const client = createFormsClient({ baseUrl, token, retry: false });
  const page = await client.submissions.list(formId, { perPage: 1, status: 'completed' }).catch(() => undefined);
  return page?.data[0]?.id;
}

/** A form of a workspace the main token's user is no member of (the explorer's foreign-parent check). */
const FOREIGN_FORM_ID = 91;

/** An account of the seed that is not a member of the workspace: the one the member checks add. */
const memberEmailOf = (seed: SeedFixture, workspaceId: number): string | undefined =>
  seed.users.find((u) => !u.memberships.some((m) => m.workspaceId === workspaceId))?.email;

/**
 * The default seed plus a workspace of another user (the seed's outsider) with one form: the main
 * token's user belongs to every other workspace, so without it no form is out of its reach.
 */
function withForeignWorkspace(seed: SeedFixture): SeedFixture {
  const template = seed.forms.at(-1)!;
  const outsider =
    seed.users.find((u) => !u.memberships.some((m) => m.workspaceId === seed.workspaces[0]!.id)) ?? seed.users.at(-1)!;
  const workspaceId = Math.max(...seed.workspaces.map((w) => w.id)) + 1;
  return {
    ...seed,
    workspaces: [...seed.workspaces, { id: workspaceId, name: 'Another company', plan: 'pro' }],
    users: seed.users.map((u) =>
      u.id === outsider.id ? { ...u, memberships: [...u.memberships, { workspaceId, role: 'admin' as const }] } : u,
    ),
    forms: [
      ...seed.forms,
      {
        ...template,
        id: FOREIGN_FORM_ID,
        workspaceId,
        slug: 'another-company-form-z9y8x7',
        title: 'Another company form',
      },
    ],
  };
}
