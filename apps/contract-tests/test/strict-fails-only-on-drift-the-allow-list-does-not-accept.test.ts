// --strict with --allow-drift: known drift of the entries the file lists (until their date) does
// not fail the run; any other drift, or an allowance past its date, does. An id the ledger does
// not have is a typed error, never skipped (issue 30, item 15).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAllowedDrift } from '../src/allow-drift.js';
import { parseCommandLine } from '../src/cli-args.js';
import type { CheckResult } from '../src/model.js';
import { renderJUnit } from '../src/report/junit.js';
import { buildReport } from '../src/report/model.js';
import { runCli } from '../src/run-cli.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();
const ids = spec.ledger.entries.map((e) => e.id);
const [first, second, third] = ids as [string, string, string];
const dir = mkdtempSync(join(tmpdir(), 'allow-drift-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const drift = (id: string, target = 'live'): CheckResult => ({
  target,
  operationId: 'getForm',
  name: `shows ${id}`,
  outcome: 'known-drift',
  reason: `known drift: ${id}`,
  failures: [],
  driftIds: [id],
  curl: [],
  durationMs: 1,
});

describe('the --allow-drift file', () => {
  it('reads entry ids, comments and dates; an allowance past its date is expired', () => {
    const read = readAllowedDrift(
      file(
        'ok.txt',
        `# accepted until upstream fixes them\n${first}\n${second} until 2026-12-31  # issue 123\n\n${third} until 2026-01-01\n`,
      ),
      ids,
      '2026-11-28',
    );
    expect(read).toEqual({
      ok: true,
      value: { ids: new Set([first, second]), expired: [{ id: third, until: '2026-01-01' }] },
    });
  });

  it('refuses an id the ledger does not have, and a malformed line, naming the lines', () => {
    const read = readAllowedDrift(
      file('bad.txt', `${first}\nno-such-entry\n${second} until tomorrow\n`),
      ids,
      '2026-11-28',
    );
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.error.kind).toBe('allow_list');
    expect(read.error.context.unknown).toEqual(['no-such-entry']);
    expect(read.error.message).toContain('line 2: "no-such-entry" is no entry of the drift ledger');
    expect(read.error.message).toContain('line 3 is not');
  });

  it('is refused without --strict (it changes nothing else)', () => {
    expect(parseCommandLine(['--allow-drift', 'x.txt'], {})).toMatchObject({ ok: false, error: { kind: 'usage' } });
  });

  it('a --strict run with an unknown id stops before any target (exit 2)', async () => {
    const lines: string[] = [];
    const code = await runCli({
      argv: [
        '--target',
        'prism',
        '--strict',
        '--allow-drift',
        file('unknown.txt', 'no-such-entry\n'),
        '--report-dir',
        dir,
      ],
      env: {},
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('"no-such-entry" is no entry of the drift ledger');
    expect(lines.join('\n')).not.toContain('== target prism: starting');
  });
});

describe('--strict with an allow list', () => {
  const report = (results: CheckResult[], allowed?: { ids: string[]; expired: Array<{ id: string; until: string }> }) =>
    buildReport({
      startedAt: new Date(),
      strict: true,
      targets: [{ name: 'live', kind: 'live' }],
      results,
      ledger: spec.ledger,
      ...(allowed ? { allowedDrift: allowed } : {}),
    });

  it('passes when every drift seen is allowed, and says none of it as a JUnit failure', () => {
    const r = report([drift(first), drift(second)], { ids: [first, second], expired: [] });
    expect(r.exitCode).toBe(0);
    expect(renderJUnit(r)).not.toContain('<failure');
  });

  it('fails on drift the file does not list, and on an allowance past its date', () => {
    expect(report([drift(first), drift(third)], { ids: [first], expired: [] }).exitCode).toBe(1);
    expect(report([drift(third)], { ids: [first], expired: [{ id: third, until: '2026-01-01' }] }).exitCode).toBe(1);
    expect(report([drift(first)]).exitCode).toBe(1);
  });
});
