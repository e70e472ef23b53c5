// `pnpm build` (from the root `pnpm docs:build`): builds the static docs site into dist/ — the bundled spec plus the guides,
// rendered by Redocly build-docs into one self-contained, offline index.html.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brandCss, FAVICON_DATA_URI, SITE_DESCRIPTION, SITE_TITLE } from './brand.ts';
import { readCodeSamples, readOperationVariants } from './code-samples.ts';
import { readGuides } from './guides.ts';
import { siteCss } from './site-css.ts';
import { readDriftLedger, type DriftLedger } from '@forms-api/spec/drift';
import { knownDifferencesGuide, readSuiteRun } from './known-differences.ts';
import { coverageGuide, readCoverage } from './coverage-page.ts';
import { findExternalReferences, rewriteRuntimeFetches, telemetryDisabled } from './offline.ts';
import { fail, type DocsResult } from './errors.ts';
import { operationIdsOf, siteSpec } from './site-spec.ts';
import { referenceForSite } from './reference-text.ts';
import { writePrecompressed } from './precompress.ts';

export const appDir = fileURLToPath(new URL('..', import.meta.url));
export const distDir = join(appDir, 'dist');
const repoDir = join(appDir, '..', '..');
/**
 * The contract suite's report the "Known differences" page reads (FORMS_DOCS_CONTRACT_REPORT moves
 * it); the "API coverage" page reads the coverage.json beside it.
 */
export const defaultContractReport = join(repoDir, 'apps/contract-tests/reports/contract-report.json');
const require = createRequire(import.meta.url);

export interface BuildOutput {
  indexHtml: string;
  guides: number;
  bytes: number;
}

function readBundle(): DocsResult<Record<string, unknown>> {
  let path: string;
  try {
    path = require.resolve('@forms-api/spec/openapi.json');
    return { ok: true, value: JSON.parse(readFileSync(path, 'utf8')) };
  } catch (err) {
    return fail(
      'spec_missing',
      `cannot read the bundled spec (@forms-api/spec/openapi.json): ${(err as Error).message}. Run \`pnpm bundle\` first.`,
      { context: { file: '@forms-api/spec/openapi.json' }, cause: err },
    );
  }
}

function readLedger(): DocsResult<DriftLedger> {
  try {
    return { ok: true, value: readDriftLedger() };
  } catch (err) {
    return fail(
      'spec_missing',
      `cannot read the drift ledger (@forms-api/spec/drift.json): ${(err as Error).message}. Run \`pnpm bundle\` first.`,
      { context: { file: '@forms-api/spec/drift.json' }, cause: err },
    );
  }
}

function fillTemplate(): string {
  const template = readFileSync(join(appDir, 'src/template.hbs'), 'utf8')
    .replace('[[description]]', SITE_DESCRIPTION)
    .replace('[[favicon]]', FAVICON_DATA_URI)
    .replace('[[brandCss]]', () => `${brandCss()}\n${siteCss()}`);
  const dir = mkdtempSync(join(tmpdir(), 'forms-api-docs-'));
  const file = join(dir, 'template.hbs');
  writeFileSync(file, template);
  return file;
}

function runBuildDocs(specFile: string, templateFile: string, output: string): DocsResult<void> {
  const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
  const run = spawnSync(
    process.execPath,
    [
      cli,
      'build-docs',
      specFile,
      '--inlineBundle',
      '--template',
      templateFile,
      '--title',
      SITE_TITLE,
      '--config',
      join(appDir, 'redocly.yaml'),
      '--output',
      output,
    ],
    {
      cwd: appDir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  if (run.status !== 0) {
    return fail(
      'redocly_failed',
      `redocly build-docs exited with ${run.status ?? run.signal}:\n${run.stderr}${run.stdout}`,
      { context: { status: run.status, signal: run.signal } },
    );
  }
  return { ok: true, value: undefined };
}

export function buildSite(): DocsResult<BuildOutput> {
  const bundle = readBundle();
  if (!bundle.ok) return bundle;
  const guides = readGuides(join(appDir, 'guides'));
  if (!guides.ok) return guides;
  const ledger = readLedger();
  if (!ledger.ok) return ledger;
  const reportFile = process.env.FORMS_DOCS_CONTRACT_REPORT || defaultContractReport;
  const run = readSuiteRun(reportFile, relative(repoDir, reportFile) || reportFile);
  if (!run.ok) return run;
  // The reference shows the spec without its citations of the service's code; the known
  // differences page lists them.
  const reference = referenceForSite(bundle.value);
  const differences = knownDifferencesGuide(ledger.value, run.value, reference.citations);
  if (!differences.ok) return differences;
  guides.value.push(differences.value);
  // The same run's coverage, written beside its report.
  const coverageFile = join(dirname(reportFile), 'coverage.json');
  const coverage = readCoverage(coverageFile, relative(repoDir, coverageFile) || coverageFile);
  if (!coverage.ok) return coverage;
  guides.value.push(coverageGuide(coverage.value));
  const samples = readCodeSamples(operationIdsOf(bundle.value));
  if (!samples.ok) return samples;
  const variants = readOperationVariants(operationIdsOf(bundle.value));
  if (!variants.ok) return variants;
  const spec = siteSpec(reference.spec, guides.value, { samples: samples.value, variants: variants.value });
  if (!spec.ok) return spec;

  const rendered = renderSite(spec.value, distDir, guides.value.length);
  if (!rendered.ok) return rendered;
  // The site's copies as a host sends them (a fifth of the bytes); pages the tests render need none.
  writePrecompressed(rendered.value.indexHtml);
  return rendered;
}

/**
 * Renders `spec` (a document siteSpec made) into `outDir`: `openapi.json` and the offline
 * `index.html`, checked for outside fetches and telemetry. The build's last step, and how the
 * tests render a page of their own.
 */
export function renderSite(spec: Record<string, unknown>, outDir: string, guides = 0): DocsResult<BuildOutput> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // The rendered document is published too, so readers can download exactly what they see.
  const specFile = join(outDir, 'openapi.json');
  writeFileSync(specFile, `${JSON.stringify(spec, null, 2)}\n`);
  const indexHtml = join(outDir, 'index.html');
  const templateFile = fillTemplate();
  const built = runBuildDocs(specFile, templateFile, indexHtml);
  rmSync(dirname(templateFile), { recursive: true, force: true });
  if (!built.ok) return built;

  const html = rewriteRuntimeFetches(readFileSync(indexHtml, 'utf8'));
  writeFileSync(indexHtml, html);
  const external = findExternalReferences(html);
  if (external.length > 0) {
    return fail(
      'external_resource',
      `dist/index.html would load resources from other hosts, so it would not work offline:\n${external
        .map((e) => `  - ${e.what}: ${e.reference}`)
        .join('\n')}`,
      { context: { references: external.map((e) => e.reference) } },
    );
  }
  if (!telemetryDisabled(html)) {
    return fail(
      'telemetry_enabled',
      'build-docs did not disable Redoc telemetry (check telemetry: off in apps/docs/redocly.yaml)',
      { context: { file: 'apps/docs/redocly.yaml' } },
    );
  }
  return { ok: true, value: { indexHtml, guides, bytes: Buffer.byteLength(html) } };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = buildSite();
  if (!result.ok) {
    console.error(`docs: ${result.error.kind}: ${result.error.message}`);
    process.exit(1);
  }
  const { guides, bytes } = result.value;
  console.log(
    `docs: wrote apps/docs/dist/index.html (${Math.round(bytes / 1024)} KiB, ${guides} guides; .br and .gz beside it) and dist/openapi.json`,
  );
}
