// A nightly --strict job with an allow list is green unless something new appears, and says which
// listed entries no tenant has shown for N days (--not-seen-days) without failing on them. When
// each entry was last seen is carried from one run's report to the next in --report-dir, so the
// user keeps nothing by hand (issue 30, item 15). Real runs of the live target against a sandbox
// behaving like the service.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '@forms-api/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantEnv } from './sandbox-tenant.js';
import type { AllowedEntrySighting } from '../src/allow-drift.js';
import { runCli } from '../src/run-cli.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();
const OPERATION = 'listWorkspaceForms';
const entriesOf = (operationId: string) =>
  spec.ledger.entries.filter((e) => e.match.some((m) => m.operationId === operationId)).map((e) => e.id);
// Listed, but of an operation this run leaves out: no tenant shows it.
const unseen = spec.ledger.entries.find((e) => e.match.every((m) => m.operationId !== OPERATION))!.id;

const dir = mkdtempSync(join(tmpdir(), 'not-seen-days-'));
const reportDir = join(dir, 'reports');
const allowList = join(dir, 'allow-drift.txt');
let sandbox: SandboxHandle;
let env: Record<string, string>;
// The entries the tenant showed in the first run.
let seen: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: false, behaviour: 'observed' });
  env = tenantEnv(sandbox);
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function nightly(extra: string[] = []) {
  const lines: string[] = [];
  const code = await runCli({
    argv: [
      ...['--target', 'live', '--operation', OPERATION, '--explore-budget', '0', '--no-proxy'],
      ...['--strict', '--allow-drift', allowList, '--report-dir', reportDir, ...extra],
    ],
    env,
    out: (line) => lines.push(line),
    err: (line) => lines.push(line),
    signal: new AbortController().signal,
  });
  const report = JSON.parse(readFileSync(join(reportDir, 'contract-report.json'), 'utf8')) as {
    ledgerSeen: Array<{ id: string }>;
    allowedDrift: { sightings?: AllowedEntrySighting[]; notSeen?: Array<AllowedEntrySighting & { days: number }> };
  };
  return { code, output: lines.join('\n'), report };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('a nightly --strict run with an allow list and --not-seen-days', () => {
  it('is green while only listed drift shows; the report carries when each listed entry was last seen', async () => {
    expect(entriesOf(OPERATION).length).toBeGreaterThan(0);
    writeFileSync(allowList, `# known differences we live with\n${[...entriesOf(OPERATION), unseen].join('\n')}\n`);
    const first = await nightly(['--not-seen-days', '30']);
    expect(first.code, first.output).toBe(0);
    // The tenant showed entries of the operation: each was seen today, the others are tracked from today.
    seen = first.report.ledgerSeen.map((e) => e.id);
    expect(seen.length).toBeGreaterThan(0);
    expect(entriesOf(OPERATION)).toEqual(expect.arrayContaining(seen));
    const today = day(0);
    expect(first.report.allowedDrift.sightings).toEqual(
      [...entriesOf(OPERATION), unseen].map((id) =>
        seen.includes(id) ? { id, lastSeen: today, trackedSince: today } : { id, trackedSince: today },
      ),
    );
    expect(first.report.allowedDrift.notSeen).toEqual([]);
    expect(first.output).not.toContain('no tenant has shown');
  });

  it('the next run reads those dates: a listed entry unseen for 30 days is reported, and does not fail the run', async () => {
    // Forty nights later: the previous report in --report-dir is the one the last nightly run left.
    const path = join(reportDir, 'contract-report.json');
    const previous = JSON.parse(readFileSync(path, 'utf8')) as { allowedDrift: { sightings: AllowedEntrySighting[] } };
    const longAgo = day(-40);
    previous.allowedDrift.sightings = previous.allowedDrift.sightings.map((s) => ({
      id: s.id,
      trackedSince: longAgo,
      ...(s.lastSeen ? { lastSeen: longAgo } : {}),
    }));
    writeFileSync(path, JSON.stringify(previous));
    const next = await nightly(['--not-seen-days', '30']);
    expect(next.code, next.output).toBe(0);
    const never = [...entriesOf(OPERATION), unseen].filter((id) => !seen.includes(id));
    expect(next.report.allowedDrift.notSeen).toEqual(never.map((id) => ({ id, trackedSince: longAgo, days: 40 })));
    // Seen again tonight: the count starts over; tracking keeps its first day.
    expect(next.report.allowedDrift.sightings).toEqual(
      expect.arrayContaining(seen.map((id) => ({ id, lastSeen: day(0), trackedSince: longAgo }))),
    );
    expect(next.output).toContain(
      `--allow-drift: no tenant has shown ${unseen} for 40 days (not once since ${longAgo}; --not-seen-days 30): fixed upstream? Drop it from the allow list (this does not fail the run).`,
    );
  });

  it('fails when the tenant shows drift the list does not cover', async () => {
    const [kept, ...dropped] = seen;
    writeFileSync(allowList, `${unseen}\n`);
    expect((await nightly(['--not-seen-days', '30'])).code).toBe(1);
    if (dropped.length === 0) return;
    writeFileSync(allowList, `${kept}\n${unseen}\n`);
    expect((await nightly(['--not-seen-days', '30'])).code).toBe(1);
  });

  it('refuses a previous report that is not one of the suite, rather than restart every count (exit 2)', async () => {
    writeFileSync(allowList, `${unseen}\n`);
    writeFileSync(join(reportDir, 'contract-report.json'), '<html>');
    const lines: string[] = [];
    const code = await runCli({
      argv: [
        '--target',
        'live',
        '--strict',
        '--allow-drift',
        allowList,
        '--not-seen-days',
        '30',
        '--report-dir',
        reportDir,
      ],
      env,
      out: (line) => lines.push(line),
      err: (line) => lines.push(line),
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain("--not-seen-days reads the previous run's report");
    expect(lines.join('\n')).toContain('it is not JSON');
  });

  it('--not-seen-days without --allow-drift is a usage error', async () => {
    const lines: string[] = [];
    const code = await runCli({
      argv: ['--target', 'prism', '--not-seen-days', '30'],
      env: {},
      out: (line) => lines.push(line),
      err: (line) => lines.push(line),
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('add --strict --allow-drift <file>');
  });
});
