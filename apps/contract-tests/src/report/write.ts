// Writes contract-report.json, contract-report.xml, drift.md and coverage.json into the report directory. Both are redacted
// as data (every string of the report) and again as text; the JSON drops raw exchanges.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DriftLedger } from '@forms-api/spec/drift';
import { renderDriftMarkdown } from './drift-markdown.js';
import { renderJUnit } from './junit.js';
import type { RunReport } from './model.js';
import { coverageReport } from './coverage.js';
import { redactValue, type Redact } from './placeholders.js';
import { redactKeepingRepros } from './repros.js';
import { xmlEscape } from './junit.js';

/** The JSON form: results without the recorded exchanges (only the request line and status of each). */
export function toJson(report: RunReport, redact: Redact): string {
  return redactKeepingRepros(
    report,
    (marked) => renderJson(marked, redact),
    redact,
    (line) => JSON.stringify(line).slice(1, -1),
  );
}

function renderJson({ coverage: _coverage, ...report }: RunReport, redact: Redact): string {
  const results = report.results.map(({ failures, ...rest }) => ({
    ...rest,
    failures: failures.map(({ exchange, schemaErrors, ...f }) => ({
      ...f,
      ...(schemaErrors
        ? {
            schemaErrors: schemaErrors.map((e) => ({
              instancePath: e.instancePath,
              keyword: e.keyword,
              message: e.message,
              params: e.params,
            })),
          }
        : {}),
      ...(exchange ? { request: `${exchange.method} ${exchange.url}`, status: exchange.status } : {}),
    })),
  }));
  return JSON.stringify(redactValue({ ...report, results }, redact), null, 2) + '\n';
}

/** The JUnit form, redacted as data and as text (its repros as they were quoted). */
export function toJUnit(report: RunReport, redact: Redact): string {
  return redactKeepingRepros(report, (marked) => renderJUnit(redactValue(marked, redact)), redact, xmlEscape);
}

export async function writeReports(
  report: RunReport,
  dir: string,
  redact: Redact,
  ledger: Pick<DriftLedger, 'entries'>,
): Promise<{ json: string; xml: string; drift: string; coverage: string }> {
  await mkdir(dir, { recursive: true });
  const json = join(dir, 'contract-report.json');
  const xml = join(dir, 'contract-report.xml');
  const drift = join(dir, 'drift.md');
  const coverage = join(dir, 'coverage.json');
  await writeReplacing(json, toJson(report, redact));
  await writeReplacing(xml, toJUnit(report, redact));
  await writeReplacing(drift, redact(renderDriftMarkdown(report, ledger)));
  // Names from the spec and counts only; redacted as data all the same, like every report.
  await writeReplacing(coverage, JSON.stringify(redactValue(coverageReport(report.coverage), redact), null, 2) + '\n');
  return { json, xml, drift, coverage };
}

/**
 * Writes a new file beside `path` (created exclusively: never through a link someone placed there)
 * and renames it over `path`. A rename replaces a symlink rather than following it, so a link in
 * the report directory cannot aim the report at another file.
 */
async function writeReplacing(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
  await writeFile(temporary, text, { flag: 'wx', mode: 0o644 });
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
