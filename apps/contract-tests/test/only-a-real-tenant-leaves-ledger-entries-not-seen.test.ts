// "Not seen — fixed upstream?" is something only a real tenant can say, and only of the entries of
// operations that ran on it: the embedded sandboxes are reported as `sandbox`, never as a tenant
// (issue 30, item 1).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../src/model.js';
import { buildReport } from '../src/report/model.js';
import { renderDriftMarkdown } from '../src/report/drift-markdown.js';
import { runCli } from '../src/run-cli.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();
const reportDir = mkdtempSync(join(tmpdir(), 'not-seen-'));
afterAll(() => rmSync(reportDir, { recursive: true, force: true }));

const result = (target: string, operationId: string, extra: Partial<CheckResult> = {}): CheckResult => ({
  target,
  operationId,
  name: 'a check',
  outcome: 'passed',
  failures: [],
  driftIds: [],
  curl: [],
  durationMs: 1,
  ...extra,
});

const entriesOf = (operationId: string) =>
  spec.ledger.entries.filter((e) => e.match.some((m) => m.operationId === operationId)).map((e) => e.id);

describe('ledger entries not seen', () => {
  it('a run of the sandbox alone reports it as a sandbox and leaves no entry "not seen"', async () => {
    const out: string[] = [];
    const code = await runCli({
      argv: ['--target', 'sandbox', '--operation', 'getForm', '--explore-budget', '0', '--no-proxy'].concat([
        '--report-dir',
        reportDir,
      ]),
      env: {},
      out: (line) => out.push(line),
      err: () => {},
      signal: new AbortController().signal,
    });
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(reportDir, 'contract-report.json'), 'utf8')) as {
      targets: Array<{ name: string; kind: string }>;
      ledgerNotSeen: unknown[];
    };
    expect(report.targets).toEqual([expect.objectContaining({ name: 'sandbox', kind: 'sandbox' })]);
    expect(report.ledgerNotSeen).toEqual([]);
    expect(out.join('\n')).not.toContain('not seen');
    const drift = readFileSync(join(reportDir, 'drift.md'), 'utf8');
    expect(drift).not.toContain('fixed upstream');
    expect(drift).toContain('reached no tenant of the service');
  });

  it('a tenant leaves "not seen" only the entries of the operations that ran on it', () => {
    const report = buildReport({
      startedAt: new Date(),
      strict: false,
      targets: [
        { name: 'sandbox (observed)', kind: 'sandbox', expectsDrift: 'every-entry' },
        { name: 'live', kind: 'live' },
      ],
      results: [
        // The observed sandbox shows every entry; that says nothing of the tenant.
        ...spec.ledger.entries.map((e) =>
          result('sandbox (observed)', e.match[0]!.operationId, { outcome: 'known-drift', driftIds: [e.id] }),
        ),
        result('live', 'createFormAnswer'),
        // Skipped checks (a setting missing, no --write) did not run their operation.
        result('live', 'updateFormSubmission', { outcome: 'skipped', reason: 'changes data: run with --write' }),
      ],
      ledger: spec.ledger,
    });
    expect(entriesOf('createFormAnswer').length).toBeGreaterThan(0);
    expect(report.ledgerNotSeen.map((e) => e.id)).toEqual(entriesOf('createFormAnswer'));
    const drift = renderDriftMarkdown(report, spec.ledger);
    expect(drift).toContain('its operation did not run there in this run');
    expect(drift.match(/fixed upstream/g)?.length).toBe(entriesOf('createFormAnswer').length);
  });

  // An entry belongs to the operation it names: `submission-resource-extra-keys` (the list's) also
  // matches an update's answer, but only one whose submission carries attribution shows it, so a
  // run of the update alone neither expects it of the observed sandbox nor calls it not seen.
  it("expects of a run limited to one operation only that operation's own entries", () => {
    const borrowed = spec.ledger.entries.find((e) => e.id === 'submission-resource-extra-keys')!;
    expect(borrowed.operationId).toBe('listFormSubmissions');
    expect(borrowed.match.some((m) => m.operationId === 'updateFormSubmission')).toBe(true);
    const own = spec.ledger.entries.filter((e) => e.operationId === 'updateFormSubmission');
    const report = buildReport({
      startedAt: new Date(),
      strict: false,
      targets: [
        { name: 'sandbox (observed)', kind: 'sandbox', expectsDrift: 'every-entry' },
        { name: 'live', kind: 'live' },
      ],
      results: ['sandbox (observed)', 'live'].flatMap((target) =>
        own.map((e) => result(target, 'updateFormSubmission', { outcome: 'known-drift', driftIds: [e.id] })),
      ),
      ledger: spec.ledger,
    });
    expect(report.expectationFailures).toEqual([]);
    expect(report.ledgerNotSeen.map((e) => e.id)).not.toContain(borrowed.id);
  });

  // Where the service's own reference differs from its code the spec follows the code: there is
  // nothing for a tenant to show, so a run of those operations leaves none of them "not seen".
  it("never reports the ledger's reference drift as drift not seen", () => {
    const reference = spec.ledger.referenceDrift ?? [];
    expect(reference.length).toBeGreaterThan(0);
    const ran = [...new Set(reference.flatMap((e) => e.operationIds))];
    const report = buildReport({
      startedAt: new Date(),
      strict: false,
      targets: [{ name: 'live', kind: 'live' }],
      results: ran.map((operationId) => result('live', operationId)),
      ledger: spec.ledger,
    });
    const referenceIds = new Set(reference.map((e) => e.id));
    expect(report.ledgerNotSeen.filter((e) => referenceIds.has(e.id))).toEqual([]);
    expect(report.ledgerSeen.filter((e) => referenceIds.has(e.id))).toEqual([]);
    const drift = renderDriftMarkdown(report, spec.ledger);
    for (const id of referenceIds) expect(drift).not.toContain(id);
  });
});
