// The live target, pointed at `forms-sandbox --behaviour observed` (a separate process behaving
// like the service's code, configured through the environment as a user configures a tenant),
// runs with --write and reports every ledger entry as known drift with no unexpected failure;
// the same sandbox with a fault switch on fails the run, naming the check.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Clock } from '@forms-api/client';
import { startSandbox, type SandboxHandle } from '@forms-api/sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';
import { loadSpec } from '../src/spec.js';
import { freePort } from '../src/targets/process.js';

const sandboxCli = join(dirname(createRequire(import.meta.url).resolve('@forms-api/sandbox')), 'cli.js');

/** What a test reads of a started sandbox (the CLI's JSON line, or the handle of one started here). */
interface Tenant {
  readonly baseUrl: string;
  readonly tokens: Record<string, string>;
  readonly workspaces: Array<{ id: number; plan: string; forms: Array<{ id: number; captcha?: boolean }> }>;
}

interface StartedSandbox extends Tenant {
  readonly child: ChildProcess;
}

const running: ChildProcess[] = [];
const sandboxes: SandboxHandle[] = [];
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
  for (const child of running.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
});

/** Starts the sandbox CLI, its rate limit off, and reads the JSON line it prints once listening. */
async function startSandboxCli(args: string[]): Promise<StartedSandbox> {
  const child = spawn(
    process.execPath,
    [sandboxCli, '--port', '0', '--allow-private-webhooks', '--no-rate-limit', ...args],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  running.push(child);
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { child, ...(JSON.parse(line) as Omit<StartedSandbox, 'child'>) };
}

/**
 * A clock running `scale` times faster than the real one, for the limiter and the pacer alike, and
 * held still until `release()`: a minute of theirs passes in 60/scale s, so a paced run of several
 * windows takes seconds while both keep the service's numbers.
 */
function scaledClock(scale: number): Required<Pick<Clock, 'now' | 'sleep'>> & { release(): void } {
  let heldAt: number | undefined = Date.now();
  let base = 0;
  let origin = 0;
  return {
    now: () => heldAt ?? base + (Date.now() - origin) * scale,
    release() {
      if (heldAt === undefined) return;
      base = heldAt;
      origin = Date.now();
      heldAt = undefined;
    },
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        }, ms / scale);
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

/** The environment a user would set for this tenant (README: live target settings). */
async function tenantEnvironment(sandbox: Tenant): Promise<Record<string, string>> {
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
    FORMS_API_WORKSPACE_ID: String(pro.id),
    FORMS_API_FORM_ID: String(form.id),
    FORMS_API_SUBMISSION_ID: String(page.data[0]!.id),
    FORMS_API_FREE_FORM_ID: String(free.forms[0]!.id),
    FORMS_API_CAPTCHA_FORM_ID: String(captcha.id),
    FORMS_API_WEBHOOK_RECEIVER_PORT: String(port),
    FORMS_API_WEBHOOK_RECEIVER_URL: `http://127.0.0.1:${port}/webhook`,
  };
}

async function runLive(env: Record<string, string>, args: string[] = [], clock?: Clock) {
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

describe('the live target against a sandbox behaving like the service', () => {
  it('runs --write with every ledger entry known and no unexpected failure; --strict fails it', async () => {
    const sandbox = await startSandboxCli(['--behaviour', 'observed']);
    const env = await tenantEnvironment(sandbox);
    const run = await runLive(env);
    const failed = run.report.results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.operationId} › ${r.name}: ${r.reason}`);
    expect(failed).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report.ledgerSeen.map((e) => e.id).sort()).toEqual(
      loadSpec()
        .ledger.entries.map((e) => e.id)
        .sort(),
    );
    const entries = loadSpec().ledger.entries.length;
    expect(run.drift).toContain(`${entries} of ${entries} ledger entries seen, 0 unexpected failure(s)`);

    const strict = await runCli({
      argv: ['--write', '--strict', '--no-proxy', '--report-dir', await mkdtemp(join(tmpdir(), 'contract-strict-'))],
      env,
      out: () => {},
      err: () => {},
      signal: new AbortController().signal,
    });
    expect(strict).toBe(1);
  }, 300_000);

  it('fails when a fault is switched on besides the known drift, naming the check', async () => {
    const sandbox = await startSandboxCli(['--behaviour', 'observed', '--fault', 'ignore-ability']);
    const run = await runLive(await tenantEnvironment(sandbox));
    expect(run.code).toBe(1);
    const failed = run.report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.operationId} › ${r.name}`);
    expect(failed).toContain('listFormSubmissions › token without the ability: 403');
  }, 300_000);

  // Issue 18: a tenant enforcing the service's limit (100 a minute per user). Before the run, the
  // main token's budget is spent by "someone else" (as a nightly job sharing a token would find
  // it), so the run starts by meeting 429s: each must be waited out, never reported. The limiter
  // and the pacer are the real ones at 100 a minute, on one clock where a minute lasts 6 s.
  it('with the rate limit on at 100 a minute and the budget already spent, --write has no false failure: every 429 is waited out and none comes after', async () => {
    const clock = scaledClock(20);
    const answers: Array<{ status: number; limited: boolean }> = [];
    let spending = true;
    const handle = await startSandbox({
      behaviour: 'observed',
      allowPrivateWebhooks: true,
      rateLimit: { limit: 100, windowMs: 60_000 },
      now: clock.now,
      log: (line) => {
        const answer = /^\S+ (\S+) -> (\d{3}) /.exec(line);
        if (!answer) return;
        const status = Number(answer[2]);
        // The run's first limited request meets the spent budget; from then on the clock runs.
        if (status === 429 && !spending) clock.release();
        answers.push({ status, limited: /^\/(open|forms)\//.test(answer[1]!) });
      },
    });
    sandboxes.push(handle);
    const sandbox: Tenant = handle;
    const env = await tenantEnvironment(sandbox);
    const pro = sandbox.workspaces.find((w) => w.plan === 'pro')!;
    // The clock holds still: the whole budget is spent in one window, however slow the machine.
    let refused = 0;
    for (let i = 0; i <= 100 && refused === 0; i++) {
      const response = await fetch(`${sandbox.baseUrl}/open/workspaces/${pro.id}/forms`, {
        headers: { authorization: `Bearer ${sandbox.tokens.all}` },
      });
      await response.arrayBuffer();
      if (response.status === 429) refused++;
    }
    expect(refused).toBe(1);
    spending = false;
    const spent = answers.length;
    const run = await runLive(env, ['--no-proxy'], clock);
    const failed = run.report.results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.operationId} › ${r.name}: ${r.reason}`);
    expect(failed).toEqual([]);
    expect(run.report.results.flatMap((r) => r.failures).filter((f) => f.kind === 'rate-limited')).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report.ledgerSeen.map((e) => e.id).sort()).toEqual(
      loadSpec()
        .ledger.entries.map((e) => e.id)
        .sort(),
    );
    const traffic = run.report.targets.find((t) => t.name === 'live')!.traffic!;
    expect(traffic.requestsPerMinute).toBe(100);
    // The spent budget was met and waited out, not reported.
    expect(traffic.rateLimited).toBeGreaterThan(0);
    expect(traffic.gaveUp).toBe(0);
    // Pacing kept the run within the limit: after the first answer past the spent window, the
    // limiter refused nothing, over several windows' worth of limited requests.
    const ofRun = answers.slice(spent);
    const firstServed = ofRun.findIndex((a) => a.limited && a.status !== 429);
    expect(firstServed).toBeGreaterThan(0);
    expect(ofRun.slice(0, firstServed).filter((a) => a.status === 429).length).toBe(traffic.rateLimited);
    expect(ofRun.slice(firstServed).filter((a) => a.status === 429)).toEqual([]);
    expect(ofRun.filter((a) => a.limited).length).toBeGreaterThan(200);
    expect(run.stderr).toMatch(/answered 429 \(1×\): waiting \d+ s as the service asked/);
    expect(run.stderr).toMatch(/checks; \d+ requests, waited [\d.]+ (s|min)/);
    expect(run.stdout).toMatch(/live: \d+ requests sent, paced at 100\/min, waited .+ all waited out/);
    expect(run.stdout).toMatch(/duration: /);
  }, 300_000);
});
