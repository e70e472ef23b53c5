// A sandbox started as a separate process (`forms-sandbox`), configured through the environment
// as a user configures a tenant, and the contract CLI run against it as the live target.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Clock } from '@forms-api/client';
import { runCli } from '../src/run-cli.js';
import { freePort } from '../src/targets/process.js';

const sandboxCli = join(dirname(createRequire(import.meta.url).resolve('@forms-api/sandbox')), 'cli.js');

/** What a test reads of a started sandbox (the CLI's JSON line, or the handle of one started here). */
export interface Tenant {
  readonly baseUrl: string;
  readonly tokens: Record<string, string>;
  readonly workspaces: Array<{ id: number; plan: string; forms: Array<{ id: number; captcha?: boolean }> }>;
}

export interface StartedSandbox extends Tenant {
  readonly child: ChildProcess;
}

const running: ChildProcess[] = [];

/** Stops every sandbox process started here (call it in afterEach). */
export async function stopSandboxCli(): Promise<void> {
  for (const child of running.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

/** Starts the sandbox CLI, its rate limit off, and reads the JSON line it prints once listening. */
export async function startSandboxCli(args: string[]): Promise<StartedSandbox> {
  const child = spawn(
    process.execPath,
    [sandboxCli, '--port', '0', '--allow-private-webhooks', '--no-rate-limit', ...args],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  running.push(child);
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { child, ...(JSON.parse(line) as Omit<StartedSandbox, 'child'>) };
}

/** The environment a user would set for this tenant (README: live target settings). */
export async function tenantEnvironment(sandbox: Tenant): Promise<Record<string, string>> {
  const pro = sandbox.workspaces.find((w) => w.plan === 'pro')!;
  const free = sandbox.workspaces.find((w) => w.plan === 'free')!;
  const form = pro.forms[0]!;
  const captcha = sandbox.workspaces.flatMap((w) => w.forms).find((f) => f.captcha)!;
  const page = (await (
    await fetch(`${sandbox.baseUrl}/open/forms/${form.id}/submissions?status=completed&per_page=1`, {
      headers: { authorization: `Bearer ${sandbox.tokens.all}` },
    })
  ).json()) as { data: Array<{ id: number }> };
  const port = await freePort();
  return {
    FORMS_CONTRACT_TARGETS: 'live',
    FORMS_API_BASE_URL: sandbox.baseUrl,
    FORMS_API_TOKEN: sandbox.tokens.all!,
    FORMS_API_TOKEN_WITHOUT_FORMS_READ: sandbox.tokens.withoutRead!,
    FORMS_API_TOKEN_WITHOUT_FORMS_WRITE: sandbox.tokens.withoutWrite!,
    FORMS_API_TOKEN_WITHOUT_MANAGE_INTEGRATIONS: sandbox.tokens.withoutIntegrations!,
    FORMS_API_TOKEN_WITHOUT_ABILITIES: sandbox.tokens.none!,
    FORMS_API_TOKEN_INTEGRATIONS_ONLY: sandbox.tokens.integrations!,
    // Bob: a user of other workspaces, no member of the pro one.
    FORMS_API_OTHER_USER_TOKEN: sandbox.tokens.outsider!,
    FORMS_API_WORKSPACE_ID: String(pro.id),
    FORMS_API_FORM_ID: String(form.id),
    FORMS_API_SUBMISSION_ID: String(page.data[0]!.id),
    FORMS_API_FREE_FORM_ID: String(free.forms[0]!.id),
    FORMS_API_CAPTCHA_FORM_ID: String(captcha.id),
    FORMS_API_WEBHOOK_RECEIVER_PORT: String(port),
    FORMS_API_WEBHOOK_RECEIVER_URL: `http://127.0.0.1:${port}/webhook`,
  };
}

export async function runLive(env: Record<string, string>, args: string[] = [], clock?: Clock) {
  const dir = await mkdtemp(join(tmpdir(), 'contract-live-observed-'));
  const stdout: string[] = [];
  const stderr: string[] = [];
  try {
    const code = await runCli({
      argv: ['--write', '--report-dir', dir, ...args],
      env,
      out: (l) => stdout.push(l),
      err: (l) => stderr.push(l),
      signal: new AbortController().signal,
      ...(clock ? { clock } : {}),
    });
    const report = JSON.parse(await readFile(join(dir, 'contract-report.json'), 'utf8')) as {
      totals: Record<string, number>;
      ledgerSeen: Array<{ id: string }>;
      targets: Array<{
        name: string;
        traffic?: {
          requests: number;
          requestsPerMinute?: number;
          waitedMs?: number;
          rateLimited?: number;
          gaveUp?: number;
          durationMs: number;
        };
      }>;
      results: Array<{
        outcome: string;
        operationId: string;
        name: string;
        reason?: string;
        failures: Array<{ kind: string }>;
      }>;
    };
    return {
      code,
      stdout: stdout.join('\n'),
      stderr: stderr.join('\n'),
      report,
      drift: await readFile(join(dir, 'drift.md'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
