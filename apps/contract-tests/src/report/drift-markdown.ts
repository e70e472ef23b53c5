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

/** Where the tenant stands on an entry: only a real tenant that ran the entry's operation can say it may be fixed. */
type OnTenant = 'seen' | 'not-seen' | 'operation-not-run' | 'no-tenant';

const NOT_ON_TENANT: Record<Exclude<OnTenant, 'seen'>, string> = {
  'not-seen':
    '**Not seen** on the tenant, though its operation ran: fixed upstream, or not exercised by this configuration.',
  'operation-not-run': '**Not seen** on the tenant: its operation did not run there in this run.',
  'no-tenant':
    '**Not seen** in this run, which reached no tenant of the service: the sandboxes show what the suite reproduces, not what the service does.',
};

function entrySection(
  entry: DriftEntry,
  seen: RunReport['ledgerSeen'][number] | undefined,
  onTenant: OnTenant,
): string[] {
  const { evidence } = entry;
  const out = [
    `### ${entry.id}`,
    '',
    `**${inline(entry.title)}** (${entry.severity}${entry.operationId ? `, \`${entry.operationId}\`` : ''})`,
    '',
  ];
  const seenLine = seen ? `**Seen** ${seen.count}× on ${seen.targets.map((t) => `\`${t}\``).join(', ')}.` : undefined;
  // A sandbox showing an entry is by design; where a tenant ran, say what it showed.
  const tenantLine = onTenant === 'seen' || (seen && onTenant === 'no-tenant') ? undefined : NOT_ON_TENANT[onTenant];
  out.push(`- ${[seenLine, tenantLine].filter(Boolean).join(' ')}`);
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
  const tenants = report.targets
    .filter((t) => t.kind === 'live' && !t.error)
    .flatMap((t) => [t.name, `${t.name} (prism proxy)`]);
  const notSeenOnTenant = new Set(report.ledgerNotSeen.map((e) => e.id));
  const onTenant = (id: string): OnTenant => {
    if (tenants.length === 0) return 'no-tenant';
    if (notSeenOnTenant.has(id)) return 'not-seen';
    return seenById.get(id)?.targets.some((t) => tenants.includes(t)) ? 'seen' : 'operation-not-run';
  };
  for (const entry of ledger.entries) out.push(...entrySection(entry, seenById.get(entry.id), onTenant(entry.id)));
  return out.join('\n');
}
