// The "Known differences" page is generated from the drift ledger: every entry with its id, title,
// the contract's words, what the service does, its source lines as links at the ledger's commit,
// what to do, and where the contract suite last saw it (from its report, or "not run").
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDriftLedger } from '@forms-api/spec/drift';
import {
  knownDifferencesGuide,
  readSuiteRun,
  REFERENCE_DIFFERENCES_HEADING,
  type SuiteRunSource,
} from '../src/known-differences.ts';
import { markdownText, tableCell } from '../src/markdown-text.ts';

const ledger = readDriftLedger();
/** Ledger text as the page writes it: one line, escaped outside its code spans. */
const md = (text: string): string => markdownText(text.replace(/\s*\n\s*/g, ' ').trim());
const notRun: SuiteRunSource = { kind: 'not-run', path: 'apps/contract-tests/reports/contract-report.json' };

function page(source: SuiteRunSource): string {
  const guide = knownDifferencesGuide(ledger, source);
  if (!guide.ok) throw new Error(guide.error.message);
  return guide.value.body;
}

/** The part of the page about one entry: from its heading to the next one. */
function section(body: string, title: string): string {
  const start = body.indexOf(`## ${md(title)}\n`);
  expect(start, `no section for "${title}"`).toBeGreaterThanOrEqual(0);
  const next = body.indexOf('\n## ', start + 1);
  return body.slice(start, next < 0 ? undefined : next);
}

describe('the Known differences page', () => {
  it('has a section for every ledger entry with its id, the contract, the service, the code and the advice', () => {
    const body = page(notRun);
    expect(ledger.entries.length).toBeGreaterThan(10);
    for (const entry of ledger.entries) {
      const text = section(body, entry.title);
      expect(text).toContain(`Entry \`${entry.id}\``);
      expect(text).toContain(`**The contract says:** ${md(entry.contract)}`);
      for (const quote of entry.contractQuotes) expect(text).toContain(`> ${md(quote)}`);
      expect(text).toContain(`**What the service does:**`);
      for (const s of entry.evidence.sources ?? []) {
        const anchor = s.endLine && s.endLine !== s.line ? `#L${s.line}-L${s.endLine}` : `#L${s.line}`;
        expect(text).toContain(`](https://github.com/${s.repo}/blob/${s.commit}/${s.path}${anchor})`);
      }
      if (entry.evidence.integratorAdvice) expect(text).toContain('**What to do:**');
      expect(text).toContain('**Last seen by the contract suite:** not run');
    }
  });

  it("has a section of its own for where the service's reference differs from its code, after the drift", () => {
    const body = page(notRun);
    const reference = ledger.referenceDrift ?? [];
    expect(reference.length).toBe(20);
    const heading = `\n## ${REFERENCE_DIFFERENCES_HEADING}\n`;
    const start = body.indexOf(heading);
    expect(start).toBeGreaterThan(body.indexOf(`## ${md(ledger.entries.at(-1)!.title)}\n`));
    const next = body.indexOf('\n## ', start + heading.length);
    const part = body.slice(start, next < 0 ? undefined : next);
    expect(part).toContain('the code wins');
    expect(part).toContain('the contract suite never reports them');
    // Not drift: nothing of a drift entry's run or severity.
    expect(part).not.toContain('Last seen');
    for (const entry of reference) {
      const from = part.indexOf(`### ${md(entry.title)}\n`);
      expect(from, entry.id).toBeGreaterThanOrEqual(0);
      const after = part.indexOf('\n### ', from + 1);
      const text = part.slice(from, after < 0 ? undefined : after);
      expect(text).toContain(`Entry \`${entry.id}\`, on operation`);
      for (const id of entry.operationIds) expect(text).toContain(`\`${id}\``);
      expect(text).toContain(`**The service's reference says:** ${md(entry.reference)}`);
      for (const q of entry.referenceQuotes)
        expect(text).toContain(
          `> ${md(q.quote)} ([\`${q.path}:${q.line}\`](https://github.com/${q.repo}/blob/${q.commit}/${q.path}#L${q.line}))`,
        );
      expect(text).toContain(`**What its code does, and this site says:** ${md(entry.observed)}`);
      for (const s of entry.evidence.sources) {
        const anchor = s.endLine && s.endLine !== s.line ? `#L${s.line}-L${s.endLine}` : `#L${s.line}`;
        expect(text).toContain(`](https://github.com/${s.repo}/blob/${s.commit}/${s.path}${anchor})`);
      }
      expect(text).toContain(`**What to do:** ${md(entry.evidence.integratorAdvice)}`);
      // Never in the table of drift entries.
      expect(body.slice(0, start)).not.toContain(`\`${entry.id}\``);
    }
    expect(body).toContain(`lists the ${reference.length} places where the service's own API reference says otherwise`);
  });

  it('has no such section for a ledger without reference drift', () => {
    const { referenceDrift: _reference, ...contractOnly } = ledger;
    const guide = knownDifferencesGuide(contractOnly, notRun);
    if (!guide.ok) throw new Error(guide.error.message);
    expect(guide.value.body).not.toContain(REFERENCE_DIFFERENCES_HEADING);
  });

  it('links the source lines at the commit the ledger read (aee613da)', () => {
    expect(ledger.upstream.commit.startsWith('aee613da')).toBe(true);
    expect(page(notRun)).toContain(
      'https://github.com/OpnForm/OpnForm/blob/aee613da0f93b3805ed93c53b42c20bf879d7365/api/app/Http/Resources/FormListResource.php#L21-L39',
    );
  });

  it('says where "last seen" comes from, and that there was no run', () => {
    const body = page(notRun);
    expect(body).toContain('`apps/contract-tests/reports/contract-report.json`');
    expect(body).toMatch(/There was none when this copy was built, so every entry says "not run"/);
  });

  it('takes the targets each entry was seen on from the contract suite report', () => {
    const [first, second] = ledger.entries;
    const dir = mkdtempSync(join(tmpdir(), 'docs-report-'));
    const file = join(dir, 'contract-report.json');
    writeFileSync(
      file,
      JSON.stringify({
        startedAt: '2026-11-24T10:20:30.000Z',
        strict: false,
        targets: [
          { name: 'prism', kind: 'mock' },
          { name: 'live', kind: 'live' },
        ],
        ledgerSeen: [{ id: first!.id, title: first!.title, count: 3, targets: ['live'] }],
        ledgerNotSeen: [],
      }),
    );
    const source = readSuiteRun(file, 'reports/contract-report.json');
    if (!source.ok) throw new Error(source.error.message);
    const body = page(source.value);
    expect(section(body, first!.title)).toContain(
      '**Last seen by the contract suite:** seen 3× on `live` in the last run (2026-11-24 10:20 UTC).',
    );
    expect(section(body, second!.title)).toContain('not seen in the last run (2026-11-24 10:20 UTC)');
    expect(body).toContain(
      'of the run of 2026-11-24 10:20 UTC, against `prism`, `live`. That run reached a live tenant',
    );
    expect(body).toContain(
      `| \`${first!.id}\`: ${tableCell(md(first!.title))} | ${first!.severity} | \`${first!.operationId}\` | \`live\` |`,
    );
  });

  it('treats a missing report as not run, and refuses one it cannot read instead of guessing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-report-'));
    expect(readSuiteRun(join(dir, 'absent.json'), 'absent.json')).toEqual({
      ok: true,
      value: { kind: 'not-run', path: 'absent.json' },
    });
    writeFileSync(join(dir, 'broken.json'), '{"startedAt":');
    const broken = readSuiteRun(join(dir, 'broken.json'), 'broken.json');
    expect(broken.ok ? '' : `${broken.error.kind}: ${broken.error.message}`).toMatch(
      /^report_invalid: broken.json is not JSON/,
    );
    writeFileSync(join(dir, 'other.json'), '{"startedAt":"2026-11-24T00:00:00Z","targets":[]}');
    const other = readSuiteRun(join(dir, 'other.json'), 'other.json');
    expect(other.ok ? '' : other.error.message).toMatch(/`ledgerSeen` is not a list/);
  });
});
