// The reports replace whatever sits at their names in --report-dir: a symlink placed there is
// replaced, never followed, so it cannot aim a report at another file (issue 29, item 7).
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReport } from '../src/report/model.js';
import { createPlaceholderRedactor } from '../src/report/placeholders.js';
import { writeReports } from '../src/report/write.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('writing the reports', () => {
  it('replaces a symlink at each report name and leaves the file it pointed at alone', async () => {
    const root = mkdtempSync(join(tmpdir(), 'report-links-'));
    dirs.push(root);
    const reportDir = join(root, 'reports');
    const victims = ['contract-report.json', 'contract-report.xml', 'coverage.json'].map((name) => {
      const victim = join(root, `victim-${name}`);
      writeFileSync(victim, 'precious\n');
      return { name, victim };
    });
    mkdirSync(reportDir);
    for (const { name, victim } of victims) symlinkSync(victim, join(reportDir, name));
    // A dangling link too: following it would create the file it names.
    const dangling = join(root, 'created-through-a-link');
    symlinkSync(dangling, join(reportDir, 'drift.md'));

    const report = buildReport({
      startedAt: new Date(),
      strict: false,
      targets: [{ name: 'prism', kind: 'mock' }],
      results: [],
      ledger: { entries: [] },
    });
    const written = await writeReports(report, reportDir, createPlaceholderRedactor(new Map()), { entries: [] });

    for (const { victim } of victims) expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(() => lstatSync(dangling)).toThrow();
    for (const path of [written.json, written.xml, written.drift, written.coverage])
      expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(written.json, 'utf8'))).toMatchObject({ exitCode: 0 });
  });
});
