// The `sandbox` target: the embedded sandbox (@forms-api/sandbox) on a free port, private webhooks
// allowed, rate limit off; the live suite runs against it with writes on (it is disposable).
// The package is loaded dynamically so this app builds without it; its absence is a typed error.
import type { Target, TargetTokens } from './target.js';
import { tokenSecrets } from './target.js';

/** The interface @forms-api/sandbox is built to (see the brief); declared here until it is merged. */
export interface SandboxOptions {
  port: number;
  allowPrivateWebhooks: boolean;
  rateLimit: boolean;
  faults?: string[];
}
export type SandboxTokenName = 'all' | 'read' | 'write' | 'integrations' | 'none' | 'outsider' | 'readonly';
export interface SandboxInstance {
  baseUrl: string;
  tokens: Record<SandboxTokenName, string>;
  workspaces: Array<{ id: number; name: string; plan: 'pro' | 'free'; forms: Array<{ id: number; slug: string; title: string }> }>;
  reset(): Promise<void> | void;
  close(): Promise<void> | void;
}
interface SandboxModule {
  startSandbox(options: SandboxOptions): Promise<SandboxInstance>;
}

export class SandboxUnavailable extends Error {
  readonly kind = 'sandbox-unavailable' as const;
}

/** The sandbox's fault switches (SANDBOX_FAULTS), for the self-test's second fault source. */
export const SANDBOX_FAULTS = [
  'rename-field', 'drop-required-field', 'ignore-ability', 'wrong-type', 'unsorted', 'ignore-filter',
  'overlapping-pages', 'bad-signature', 'wrong-content-type', 'undocumented-status', 'missing-event',
] as const;

async function loadSandbox(): Promise<SandboxModule> {
  const name = '@forms-api/sandbox';
  try {
    // A variable specifier keeps TypeScript from requiring the package at build time.
    return (await import(name)) as SandboxModule;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new SandboxUnavailable(
        '@forms-api/sandbox is not installed in this workspace: add "@forms-api/sandbox": "workspace:*" to apps/contract-tests devDependencies (or run with --target prism / --target live).',
      );
    }
    throw new SandboxUnavailable(`@forms-api/sandbox failed to load: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Starts the sandbox (optionally with fault switches) and describes it as a live target. */
export async function startSandboxTarget(options: { name?: string; faults?: string[] } = {}): Promise<Target> {
  const { startSandbox } = await loadSandbox();
  const sandbox = await startSandbox({ port: 0, allowPrivateWebhooks: true, rateLimit: false, ...(options.faults ? { faults: options.faults } : {}) });
  try {
    const pro = sandbox.workspaces.find((w) => w.plan === 'pro' && w.forms.length > 0);
    const free = sandbox.workspaces.find((w) => w.plan === 'free' && w.forms.length > 0);
    if (!pro) throw new SandboxUnavailable('the sandbox has no pro workspace with a form');
    const form = pro.forms[0]!;
    const tokens: TargetTokens = {
      main: sandbox.tokens.all,
      withoutFormsRead: sandbox.tokens.write,
      withoutFormsWrite: sandbox.tokens.read,
      withoutManageIntegrations: sandbox.tokens.read,
      withoutAbilities: sandbox.tokens.none,
      integrationsOnly: sandbox.tokens.integrations,
    };
    const submissionId = await firstSubmissionId(sandbox.baseUrl, tokens.main, form.id);
    return {
      name: options.name ?? 'sandbox',
      kind: 'live',
      baseUrl: sandbox.baseUrl,
      tokens,
      ids: { workspaceId: pro.id, formId: form.id, formSlug: form.slug, ...(submissionId ? { submissionId } : {}), ...(free ? { freeFormId: free.forms[0]!.id } : {}) },
      write: true,
      webhooks: { listenPort: 0, receiverUrl: (port) => `http://127.0.0.1:${port}/webhook` },
      proxyPass: true,
      secrets: tokenSecrets(tokens),
      stop: async () => {
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
  try {
    const response = await fetch(`${baseUrl}/open/forms/${formId}/submissions?per_page=1&status=completed`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { data?: Array<{ id?: number }> };
    return body.data?.[0]?.id;
  } catch {
    return undefined;
  }
}

