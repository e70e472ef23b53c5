// The live target against a sandbox behaving like the service's code, configured through the
// environment as a user configures a tenant, with the service's rate limit on and its budget spent:
// --write reports every ledger entry as known drift with no unexpected failure (and --strict fails
// it); `forms-sandbox --behaviour observed` run as a separate process with a fault switch on fails
// the run, naming the check.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '@forms-api/client';
import { startSandbox, type SandboxHandle } from '@forms-api/sandbox';
import { FAULT_CATALOGUE } from '@forms-api/sandbox/faults';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';
import { loadSpec } from '../src/spec.js';
import { runLive, startSandboxCli, stopSandboxCli, tenantEnvironment, type Tenant } from './live-tenant.js';

const sandboxes: SandboxHandle[] = [];
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
  await stopSandboxCli();
});

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
describe('the live target against a sandbox behaving like the service', () => {
  it('fails when a fault is switched on besides the known drift, naming the check', async () => {
    const sandbox = await startSandboxCli(['--behaviour', 'observed', '--fault', 'ignore-ability']);
    // The fault's own operations (the catalogue's, as the self-test runs it): the others cannot
    // meet it. They have known drift of their own, which the run shows besides the fault.
    const { operations } = FAULT_CATALOGUE['ignore-ability'];
    const run = await runLive(
      await tenantEnvironment(sandbox),
      operations.flatMap((id) => ['--operation', id]),
    );
    expect(run.code).toBe(1);
    const failed = run.report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.operationId} › ${r.name}`);
    expect(failed).toContain('listFormSubmissions › token without the ability: 403');
    expect(run.report.results.filter((r) => r.outcome === 'known-drift').length).toBeGreaterThan(0);
  }, 300_000);

  // Issue 18: a tenant enforcing the service's limit (100 a minute per user). Before the run, the
  // main token's budget is spent by "someone else" (as a nightly job sharing a token would find
  // it), so the run starts by meeting 429s: each must be waited out, never reported. The limiter
  // and the pacer are the real ones at 100 a minute, on one clock where a minute lasts 3 s.
  it('with the rate limit on at 100 a minute and the budget already spent, --write knows every ledger entry and has no false failure: every 429 is waited out and none comes after; --strict fails it', async () => {
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
    // The whole run, its proxy pass included, as the nightly runs it.
    const run = await runLive(env, [], clock);
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
    const entries = loadSpec().ledger.entries.length;
    expect(run.drift).toContain(`${entries} of ${entries} ledger entries seen, 0 unexpected failure(s)`);
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

    // --strict fails on known drift: shown on the operation of one ledger entry, which the whole
    // run above just showed to meet its drift (a second whole run would prove nothing more).
    const drifting = loadSpec().ledger.entries.find((e) => e.operationId !== undefined)!.operationId!;
    expect(run.report.results.some((r) => r.operationId === drifting && r.outcome === 'known-drift')).toBe(true);
    const strict = await runCli({
      argv: [
        '--write',
        '--strict',
        '--no-proxy',
        '--operation',
        drifting,
        '--report-dir',
        await mkdtemp(join(tmpdir(), 'contract-strict-')),
      ],
      env,
      out: () => {},
      err: () => {},
      signal: new AbortController().signal,
      clock,
    });
    expect(strict).toBe(1);
  }, 300_000);
});
