// The "API coverage" page: what the contract suite's last run exercised of the spec, read from its
// coverage.json (written beside contract-report.json) when one is present at build time. The file
// is data from outside the site's sources: every name in it is shown as text, never rendered.
import type { DocsResult } from './errors.ts';
import { readReportFile } from './report-file.ts';
import type { Guide } from './guides.ts';
import { inlineCode, tableCell } from './markdown-text.ts';

export const COVERAGE_SLUG = 'api-coverage';
export const COVERAGE_TITLE = 'API coverage of the contract suite';

interface Count {
  covered: number;
  total: number;
}

type Item = { kind: string; status?: string; name?: string; in?: string; target?: string; path?: string };

/** What the page needs of coverage.json (the contract suite's `CoverageReport`). */
export interface SuiteCoverage {
  version: 1;
  targets: Array<{
    target: string;
    exchanges: { total: number; matched: number; accepted: number; refused: number };
    totals: { operations: Count; parameters: Count; properties: Count; responses: Count };
    operations: Array<{
      operationId: string;
      method: string;
      path: string;
      exchanges: { accepted: number; refused: number };
      covered: Item[];
      missing: Item[];
    }>;
  }>;
}

export type CoverageSource =
  { kind: 'report'; path: string; coverage: SuiteCoverage } | { kind: 'not-run'; path: string };

/** Reads coverage.json at `file`; absent is "not run", unreadable or of another shape is an error (never guessed). */
export function readCoverage(file: string, shownPath: string): DocsResult<CoverageSource> {
  const read = readReportFile<SuiteCoverage>(file, shownPath, 'a contract suite coverage report', coverageProblem);
  if (!read.ok) return read;
  return {
    ok: true,
    value:
      read.value === undefined
        ? { kind: 'not-run', path: shownPath }
        : { kind: 'report', path: shownPath, coverage: read.value },
  };
}

const isCount = (c: unknown): boolean =>
  Number.isInteger((c as Count)?.covered) && Number.isInteger((c as Count)?.total);
const isItems = (items: unknown): boolean =>
  Array.isArray(items) && items.every((i) => typeof (i as Item)?.kind === 'string');

function coverageProblem(json: unknown): string | undefined {
  const report = json as Partial<SuiteCoverage> | null;
  if (typeof report !== 'object' || report === null) return 'it is not an object';
  if (report.version !== 1) return '`version` is not 1';
  if (!Array.isArray(report.targets)) return '`targets` is not a list';
  for (const t of report.targets) {
    if (typeof t?.target !== 'string') return 'a target has no name';
    const e = t.exchanges;
    if (![e?.total, e?.matched, e?.accepted, e?.refused].every(Number.isInteger))
      return `target ${JSON.stringify(t.target)} has no counts of exchanges`;
    if (!['operations', 'parameters', 'properties', 'responses'].every((k) => isCount(t.totals?.[k as 'operations'])))
      return `target ${JSON.stringify(t.target)} has no totals`;
    if (
      !Array.isArray(t.operations) ||
      t.operations.some(
        (o) =>
          typeof o?.operationId !== 'string' ||
          !Number.isInteger(o.exchanges?.accepted) ||
          !Number.isInteger(o.exchanges?.refused) ||
          !isItems(o.covered) ||
          !isItems(o.missing),
      )
    )
      return `target ${JSON.stringify(t.target)} has an operation without its id, counts or items`;
  }
  return undefined;
}

const code = inlineCode;
const ratio = (c: Count): string =>
  `${c.covered}/${c.total}${c.total > 0 ? ` (${Math.floor((c.covered / c.total) * 100)}%)` : ''}`;
const statuses = (items: Item[]): string =>
  items
    .filter((i) => i.kind === 'response')
    .map((i) => code(String(i.status)))
    .join(', ') || '–';
const cells = (values: string[]): string => `| ${values.map(tableCell).join(' | ')} |`;

function targetSection(t: SuiteCoverage['targets'][number]): string[] {
  const { totals, exchanges } = t;
  return [
    `## Target ${code(t.target)}`,
    '',
    `Operations ${ratio(totals.operations)}, response codes ${ratio(totals.responses)}, parameters ${ratio(totals.parameters)}, ` +
      `top-level schema properties ${ratio(totals.properties)}. ${exchanges.total} requests: ${exchanges.accepted} accepted (2xx), ` +
      `${exchanges.refused} refused (4xx, 5xx); ${exchanges.matched} of them to an operation of the spec.`,
    '',
    '| operation | called | accepted | refused | response codes seen | response codes missing |',
    '|---|---|---|---|---|---|',
    ...t.operations.map((o) =>
      cells([
        code(o.operationId),
        o.covered.some((i) => i.kind === 'operation') ? 'yes' : '**no**',
        String(o.exchanges.accepted),
        String(o.exchanges.refused),
        statuses(o.covered),
        statuses(o.missing),
      ]),
    ),
    '',
  ];
}

/** The page as a guide (Markdown body). */
export function coverageGuide(source: CoverageSource): Guide {
  const intro = [
    "Which of the spec's operations and documented response codes the contract suite's requests exercised, per target, " +
      `read from its ${code('coverage.json')} (${code(source.path)}). The file also lists, per operation, the parameters and ` +
      'the top-level properties of JSON bodies seen and missing, in the shape `redocly drift --coverage-output` uses.',
    '',
    'Response codes no sandbox produces on demand (429, 500) stay missing on the embedded targets.',
    '',
  ];
  const body =
    source.kind === 'not-run'
      ? [
          ...intro,
          'There was none when this copy was built. Run `pnpm contract` (add `--target live` for your tenant), then `pnpm docs:build`, to fill it in.',
        ]
      : [...intro, ...source.coverage.targets.flatMap(targetSection)];
  return { slug: COVERAGE_SLUG, title: COVERAGE_TITLE, body: body.join('\n').trim() };
}
