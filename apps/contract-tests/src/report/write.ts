// Writes contract-report.json and contract-report.xml into the report directory. Everything that
// reaches disk has been redacted already (curl lines); the JSON drops raw exchanges for the same reason.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redact } from './curl.js';
import { renderJUnit } from './junit.js';
import type { RunReport } from './model.js';

/** The JSON form: results without the recorded exchanges (they hold headers with tokens). */
export function toJson(report: RunReport, secrets: ReadonlyMap<string, string>): string {
  const results = report.results.map(({ failures, ...rest }) => ({
    ...rest,
    failures: failures.map(({ exchange, schemaErrors, ...f }) => ({
      ...f,
      ...(schemaErrors ? { schemaErrors: schemaErrors.map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, message: e.message, params: e.params })) } : {}),
      ...(exchange ? { request: `${exchange.method} ${exchange.url}`, status: exchange.status } : {}),
    })),
  }));
  return redact(JSON.stringify({ ...report, results }, null, 2), secrets) + '\n';
}

export async function writeReports(report: RunReport, dir: string, secrets: ReadonlyMap<string, string>): Promise<{ json: string; xml: string }> {
  await mkdir(dir, { recursive: true });
  const json = join(dir, 'contract-report.json');
  const xml = join(dir, 'contract-report.xml');
  await writeFile(json, toJson(report, secrets));
  await writeFile(xml, redact(renderJUnit(report), secrets));
  return { json, xml };
}
