// The API reference's code samples: for each operation, the client sample and the curl line of
// @forms-api/doc-check (samples/operations/<operationId>.ts and .sh), which that app type-checks
// and runs against the sandbox. Read here, never written here: a sample that drifts from the API
// fails that app's tests, not the page.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fail, type DocsResult } from './errors.ts';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const SAMPLE_KINDS = [
  // Redoc shows the languages listed in redocly.yaml (openapi.codeSamples.languages), in that order.
  { ext: 'ts', lang: 'TypeScript', label: '@forms-api/client' },
  { ext: 'sh', lang: 'curl', label: 'curl' },
] as const;

export function operationSamplesDir(): string {
  return join(
    dirname(createRequire(import.meta.url).resolve('@forms-api/doc-check/package.json')),
    'samples',
    'operations',
  );
}

/** The samples of every operation id, or the first one missing. */
export function readCodeSamples(
  operationIds: readonly string[],
  dir = operationSamplesDir(),
): DocsResult<Map<string, CodeSample[]>> {
  const samples = new Map<string, CodeSample[]>();
  for (const operationId of operationIds) {
    const list: CodeSample[] = [];
    for (const kind of SAMPLE_KINDS) {
      const file = join(dir, `${operationId}.${kind.ext}`);
      if (!existsSync(file))
        return fail(
          'sample_missing',
          `operation ${operationId} has no ${kind.label} sample: add apps/doc-check/samples/operations/${operationId}.${kind.ext}`,
          { context: { operationId, language: kind.lang } },
        );
      list.push({ lang: kind.lang, label: kind.label, source: readFileSync(file, 'utf8').trimEnd() });
    }
    samples.set(operationId, list);
  }
  return { ok: true, value: samples };
}

/** A further client sample of an operation, shown in its description (e.g. every page with `iterate()`). */
export interface OperationVariant {
  /** From the file name: `listFormSubmissions.every-page.ts` → `Every page`. */
  title: string;
  source: string;
}

const VARIANT_FILE = /^(\w+)\.([a-z]+(?:-[a-z]+)*)\.ts$/;

/** The variant samples (`operations/<operationId>.<variant>.ts`); one of an unknown operation is an error. */
export function readOperationVariants(
  operationIds: readonly string[],
  dir = operationSamplesDir(),
): DocsResult<Map<string, OperationVariant[]>> {
  const variants = new Map<string, OperationVariant[]>();
  for (const file of readdirSync(dir).sort()) {
    const name = VARIANT_FILE.exec(file);
    if (!name) continue;
    const [, operationId, variant] = name as unknown as [string, string, string];
    if (!operationIds.includes(operationId))
      return fail(
        'sample_missing',
        `apps/doc-check/samples/operations/${file} names no operation of the spec (${operationId}): rename or delete it`,
        { context: { file, operationId } },
      );
    const title = variant.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
    variants.set(operationId, [
      ...(variants.get(operationId) ?? []),
      { title, source: readFileSync(join(dir, file), 'utf8').trimEnd() },
    ]);
  }
  return { ok: true, value: variants };
}
