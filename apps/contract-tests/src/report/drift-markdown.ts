// reports/drift.md: the drift ledger as a person reads it after a run. Per entry: seen or not and
// where, what the contract says and what the service does, the service's source lines that show
// it, and what it means for an integrator.
import type { DriftEntry, DriftLedger, DriftSourceCitation } from '@forms-api/spec/drift';
import type { RunReport } from './model.js';

/** Text from the ledger or a tenant, safe inside a Markdown table cell or line. */
const inline = (text: string): string => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');

const sourceLink = (s: DriftSourceCitation): string => {
  const lines = s.endLine && s.endLine !== s.line ? `L${s.line}-L${s.endLine}` : `L${s.line}`;
  return `[${s.path}:${s.line}${s.endLine && s.endLine !== s.line ? `-${s.endLine}` : ''}](https://github.com/${s.repo}/blob/${s.commit}/${s.path}#${lines})`;
};

function entrySection(entry: DriftEntry, seen: RunReport['ledgerSeen'][number] | undefined): string[] {
  const { evidence } = entry;
  const out = [
    `### ${entry.id}`,
    '',
    `**${inline(entry.title)}** (${entry.severity}${entry.operationId ? `, \`${entry.operationId}\`` : ''})`,
    '',
  ];
  out.push(
    seen
      ? `- **Seen** ${seen.count}× on ${seen.targets.map((t) => `\`${t}\``).join(', ')}.`
      : '- **Not seen** in this run: fixed upstream, or not exercised by this configuration.',
  );
  out.push(`- **The contract:** ${inline(entry.contract)}`);
  for (const quote of entry.contractQuotes) out.push(`  > ${inline(quote)}`);
  out.push(`- **The service:** ${inline(entry.observed)}`);
  if (evidence.sources.length > 0) {
    out.push('- **Evidence:**');
    for (const s of evidence.sources) out.push(`  - ${sourceLink(s)}: ${inline(s.note)}`);
  }
  if (evidence.integratorAdvice) out.push(`- **What to do:** ${inline(evidence.integratorAdvice)}`);
  out.push('');
  return out;
}

export function renderDriftMarkdown(report: RunReport, ledger: Pick<DriftLedger, 'entries'>): string {
  const seenById = new Map(report.ledgerSeen.map((e) => [e.id, e]));
  const ran = report.targets.map((t) => `\`${t.name}\`${t.error ? ' (did not run)' : ''}`).join(', ');
  const out = [
    '# Known drift',
    '',
    `Run of ${report.startedAt} against ${ran}: ${report.ledgerSeen.length} of ${ledger.entries.length} ledger entries seen, ${report.totals.failed} unexpected failure(s).`,
    '',
    'Each entry is a way the service contradicts its published contract, recognised by the contract suite as known drift: reported, and failing the run only with `--strict`.',
    '',
    '| entry | severity | seen on |',
    '|---|---|---|',
    ...ledger.entries.map(
      (e) =>
        `| [${e.id}](#${e.id}) | ${e.severity} | ${
          seenById
            .get(e.id)
            ?.targets.map((t) => `\`${t}\``)
            .join(', ') ?? 'not seen'
        } |`,
    ),
    '',
  ];
  if (report.expectationFailures.length > 0)
    out.push('## Expectations not met', '', ...report.expectationFailures.map((l) => `- ${inline(l)}`), '');
  out.push('## Entries', '');
  for (const entry of ledger.entries) out.push(...entrySection(entry, seenById.get(entry.id)));
  return out.join('\n');
}
