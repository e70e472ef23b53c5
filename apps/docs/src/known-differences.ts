// The "Known differences" page: the drift ledger (@forms-api/spec/drift.json, bundled from
// spec/drift.yaml) as a guide a reader can learn from, with where the contract suite last saw each
// entry, read from its JSON report when one is present at build time.
import type {
  DriftEntry,
  DriftLedger,
  DriftReferenceEntry,
  DriftReferenceQuote,
  DriftSourceCitation,
} from '@forms-api/spec/drift';
import { fail, type DocsResult } from './errors.ts';
import { readReportFile } from './report-file.ts';
import type { Guide } from './guides.ts';
import { inlineCode, markdownText, tableCell } from './markdown-text.ts';
import type { SourceCitation } from './reference-text.ts';
import { TOOLKIT_HELPERS } from './toolkit-helpers.ts';

export const KNOWN_DIFFERENCES_SLUG = 'known-differences';
export const KNOWN_DIFFERENCES_TITLE = 'Known differences from the contract';

/** What the page needs of the contract suite's `contract-report.json`. */
export interface SuiteRun {
  startedAt: string;
  strict: boolean;
  targets: Array<{ name: string; kind: string; error?: string }>;
  ledgerSeen: Array<{ id: string; count: number; targets: string[] }>;
}

/** Where the run comes from: the report's path as the page names it, or why there is none. */
export type SuiteRunSource = { kind: 'report'; path: string; run: SuiteRun } | { kind: 'not-run'; path: string };

/** Reads the contract suite's report at `file`; absent is "not run", unreadable is an error (never guessed). */
export function readSuiteRun(file: string, shownPath: string): DocsResult<SuiteRunSource> {
  const read = readReportFile<SuiteRun>(file, shownPath, 'a contract suite report', suiteRunProblem);
  if (!read.ok) return read;
  return {
    ok: true,
    value:
      read.value === undefined
        ? { kind: 'not-run', path: shownPath }
        : { kind: 'report', path: shownPath, run: read.value },
  };
}

function suiteRunProblem(json: unknown): string | undefined {
  const report = json as Partial<SuiteRun> | null;
  if (typeof report !== 'object' || report === null) return 'it is not an object';
  if (typeof report.startedAt !== 'string' || Number.isNaN(Date.parse(report.startedAt)))
    return '`startedAt` is not a date';
  if (!Array.isArray(report.targets) || report.targets.some((t) => typeof t?.name !== 'string'))
    return '`targets` is not a list of named targets';
  if (
    !Array.isArray(report.ledgerSeen) ||
    report.ledgerSeen.some((e) => typeof e?.id !== 'string' || !Array.isArray(e.targets) || typeof e.count !== 'number')
  )
    return '`ledgerSeen` is not a list of {id, count, targets}';
  return undefined;
}

const shortCommit = (commit: string): string => commit.slice(0, 8);

/** A link to lines of the service's public source, as the ledger's schema says to render it. */
export function sourceLink(s: DriftSourceCitation): string {
  const range = s.endLine !== undefined && s.endLine !== s.line;
  const anchor = range ? `L${s.line}-L${s.endLine}` : `L${s.line}`;
  const label = `${s.path}:${s.line}${range ? `-${s.endLine}` : ''}`;
  return `[\`${label}\`](https://github.com/${s.repo}/blob/${s.commit}/${s.path}#${anchor})`;
}

/** A link to the line of the service's reference a quote stands on. */
export function referenceLink(q: DriftReferenceQuote): string {
  return `[\`${q.path}:${q.line}\`](https://github.com/${q.repo}/blob/${q.commit}/${q.path}#L${q.line})`;
}

const code = inlineCode;
/**
 * Ledger text as one paragraph that reads as written: its code spans stay code, everything else is
 * escaped (the ledger is data: raw HTML in it must show as text, never render or fetch).
 */
const oneLine = (text: string): string => markdownText(text.replace(/\s*\n\s*/g, ' ').trim());

function lastSeen(entry: DriftEntry, source: SuiteRunSource): string {
  if (source.kind === 'not-run') return 'not run (no contract suite report when this page was built).';
  const seen = source.run.ledgerSeen.find((e) => e.id === entry.id);
  if (!seen)
    return `not seen in the last run (${runDate(source.run)}): fixed upstream, or not exercised by the targets of that run.`;
  return `seen ${seen.count}× on ${seen.targets.map(code).join(', ')} in the last run (${runDate(source.run)}).`;
}

// From the parsed date, so nothing of the report's own text reaches the page.
const runDate = (run: SuiteRun): string =>
  `${new Date(run.startedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function entrySection(entry: DriftEntry, upstream: DriftLedger['upstream'], source: SuiteRunSource): string[] {
  const where = entry.operationId
    ? `operation ${code(entry.operationId)}`
    : entry.webhook
      ? `webhook ${code(entry.webhook)}`
      : 'the API';
  const out = [`## ${oneLine(entry.title)}`, '', `Entry ${code(entry.id)}, ${entry.severity}, on ${where}.`, ''];
  out.push(`**The contract says:** ${oneLine(entry.contract)}`, '');
  for (const quote of entry.contractQuotes) out.push(`> ${oneLine(quote)}`, '');
  out.push(`**What the service does:** ${oneLine(entry.observed)}`, '');
  const { sources } = entry.evidence;
  if (sources.length > 0) {
    const atUpstream = sources.every((s) => s.repo === upstream.repo && s.commit === upstream.commit);
    out.push(
      `**Where its code shows it**${atUpstream ? ` (${upstream.repo} at ${code(shortCommit(upstream.commit))})` : ''}:`,
      '',
    );
    for (const s of sources) {
      const at =
        s.repo === upstream.repo && s.commit === upstream.commit
          ? ''
          : ` (${s.repo} at ${code(shortCommit(s.commit))})`;
      out.push(`- ${sourceLink(s)}${at}: ${oneLine(s.note)}`);
    }
    for (const f of entry.evidence.framework ?? []) {
      out.push(
        `- ${oneLine(f.package)} ${oneLine(f.version)}, ${code(f.path)}${f.symbol ? ` (${code(f.symbol)})` : ''}: ${oneLine(f.note)}`,
      );
    }
    out.push('');
  }
  for (const h of entry.evidence.history ?? []) {
    out.push(
      `**Since:** [${code(shortCommit(h.commit))}](https://github.com/${h.repo}/commit/${h.commit}) (${oneLine(h.date)}, "${oneLine(h.subject)}"): ${oneLine(h.note)}`,
      '',
    );
  }
  if (entry.evidence.integratorAdvice) out.push(`**What to do:** ${oneLine(entry.evidence.integratorAdvice)}`, '');
  const helper = TOOLKIT_HELPERS[entry.id];
  if (helper) out.push(`**With this toolkit:** ${helper}`, '');
  if (entry.pendingMatch) out.push(`**Not yet recognised by the contract suite:** ${oneLine(entry.pendingMatch)}`, '');
  out.push(`**Last seen by the contract suite:** ${lastSeen(entry, source)}`, '');
  return out;
}

function runParagraph(source: SuiteRunSource): string {
  if (source.kind === 'not-run') {
    return (
      `**Last seen** comes from the contract suite's report (${code(source.path)}) when the site is built. ` +
      'There was none when this copy was built, so every entry says "not run". Run `pnpm contract` ' +
      '(add `--target live` for your tenant), then `pnpm docs:build`, to fill it in.'
    );
  }
  const { run } = source;
  const targets = run.targets.map((t) => `${code(t.name)}${t.error ? ' (did not run)' : ''}`).join(', ');
  const live = run.targets.some((t) => t.kind === 'live' && !t.error);
  return (
    `**Last seen** comes from the contract suite's report (${code(source.path)}) of the run of ${runDate(run)}` +
    `${run.strict ? ' (with `--strict`)' : ''}, against ${targets}. ` +
    (live
      ? 'That run reached a live tenant: an entry not seen there may have been fixed upstream, or was not exercised.'
      : 'That run did not reach a live tenant: the sandbox behaving like the service shows every entry by design; run `--target live` against your tenant to see which of them it shows.')
  );
}

export const REFERENCE_DIFFERENCES_HEADING = "Where the service's own reference differs from its code";

/**
 * The ledger's `referenceDrift`: where the service's published API reference says otherwise than
 * its code. Not drift (the spec, and so this site's reference, follows the code), hence no severity
 * and no "last seen": the contract suite never reports them.
 */
function referenceDriftSection(ledger: DriftLedger): string[] {
  const entries = ledger.referenceDrift ?? [];
  if (entries.length === 0) return [];
  return [
    `## ${REFERENCE_DIFFERENCES_HEADING}`,
    '',
    `The service publishes an API reference of its own (${code('docs/api-reference/')} in ${ledger.upstream.repo}). ` +
      "On the operations the published contract does not show, this site describes what the service's code does (marked observed); " +
      `in these ${entries.length} places the service's own reference says otherwise, and the code wins. ` +
      'They are not drift: the service does what this site says, so the contract suite never reports them. ' +
      "If you wrote code from the service's reference, check it against these.",
    '',
    ...entries.flatMap((entry) => referenceEntrySection(entry, ledger.upstream)),
  ];
}

function referenceEntrySection(entry: DriftReferenceEntry, upstream: DriftLedger['upstream']): string[] {
  const operations = entry.operationIds.map(code).join(', ');
  const out = [
    `### ${oneLine(entry.title)}`,
    '',
    `Entry ${code(entry.id)}, on ${entry.operationIds.length > 1 ? 'operations' : 'operation'} ${operations}.`,
    '',
    `**The service's reference says:** ${oneLine(entry.reference)}`,
    '',
  ];
  for (const q of entry.referenceQuotes) out.push(`> ${oneLine(q.quote)} (${referenceLink(q)})`, '');
  out.push(`**What its code does, and this site says:** ${oneLine(entry.observed)}`, '');
  out.push(`**Where its code shows it** (${upstream.repo} at ${code(shortCommit(upstream.commit))}):`, '');
  for (const s of entry.evidence.sources) out.push(`- ${sourceLink(s)}: ${oneLine(s.note)}`);
  out.push('', `**What to do:** ${oneLine(entry.evidence.integratorAdvice)}`, '');
  return out;
}

/** The service's code behind the reference's own observations, which the reference shows without it. */
function citationSection(citations: readonly SourceCitation[], upstream: DriftLedger['upstream']): string[] {
  if (citations.length === 0) return [];
  return [
    "## Where the reference's observations come from",
    '',
    `Beyond the ledger, the reference describes what the service does where the published contract is silent (marked observed). The lines of the service's code each of those descriptions rests on, in ${upstream.repo}:`,
    '',
    ...citations.map((c) => `- ${code(c.where)}: ${code(c.lines)} at ${code(c.commit)}`),
    '',
  ];
}

/** The page as a guide (Markdown body), or an error naming what is wrong with the ledger. */
export function knownDifferencesGuide(
  ledger: DriftLedger,
  source: SuiteRunSource,
  citations: readonly SourceCitation[] = [],
): DocsResult<Guide> {
  if (!Array.isArray(ledger.entries) || ledger.entries.length === 0)
    return fail('spec_missing', 'the drift ledger (@forms-api/spec/drift.json) has no entries', {
      context: { file: '@forms-api/spec/drift.json' },
    });
  const seen = new Map(source.kind === 'report' ? source.run.ledgerSeen.map((e) => [e.id, e]) : []);
  const seenCell = (id: string): string => {
    if (source.kind === 'not-run') return 'not run';
    const e = seen.get(id);
    return e ? e.targets.map(code).join(', ') : 'not seen';
  };
  const body = [
    `Where the live service contradicts the published contract, the difference is an entry of the drift ledger (${code('spec/drift.yaml')}, shipped as ${code('@forms-api/spec/drift.json')}). ` +
      `This page lists all ${ledger.entries.length} of them, read from the service's public source (${ledger.upstream.repo} at ${code(shortCommit(ledger.upstream.commit))}, ${ledger.upstream.committedAt}): ` +
      'what the contract says, what the service does, the lines of its code that show it, and what to do about it.' +
      (ledger.referenceDrift?.length
        ? ` Below them, "${REFERENCE_DIFFERENCES_HEADING}" lists the ${ledger.referenceDrift.length} places where the service's own API reference says otherwise than its code, which this site follows.`
        : ''),
    '',
    'The contract suite recognises each entry as known drift: reported, and failing a run only with `--strict` ' +
      '(see "Running the contract suite against your tenant"). The sandbox started with `--behaviour observed` reproduces every one of them.',
    '',
    runParagraph(source),
    '',
    '| entry | severity | on | last seen on |',
    '|---|---|---|---|',
    ...ledger.entries.map(
      (e) =>
        `| ${[`${code(e.id)}: ${oneLine(e.title)}`, oneLine(e.severity), code(e.operationId ?? e.webhook ?? ''), seenCell(e.id)].map(tableCell).join(' | ')} |`,
    ),
    '',
    ...ledger.entries.flatMap((e) => entrySection(e, ledger.upstream, source)),
    ...referenceDriftSection(ledger),
    ...citationSection(citations, ledger.upstream),
  ];
  return {
    ok: true,
    value: { slug: KNOWN_DIFFERENCES_SLUG, title: KNOWN_DIFFERENCES_TITLE, body: body.join('\n').trim() },
  };
}
