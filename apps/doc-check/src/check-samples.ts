// Checks that every TypeScript or JavaScript block of the documents shows a sample file, exactly
// as the file has it: the files are what CI compiles and runs, so a block that is not one of them
// is unchecked, and a block that differs from its file has drifted.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { codeBlocks, sampleText, type CodeBlock } from './markdown.js';
import { readDocuments, SAMPLES_DIR, type Document } from './documents.js';

/** Fence languages that are code a reader would paste into a project. */
export const CODE_LANGS = new Set(['ts', 'typescript', 'tsx', 'js', 'javascript', 'mjs', 'cjs']);

export interface SampleProblem {
  readonly where: string;
  readonly message: string;
}

export function sampleFiles(dir = SAMPLES_DIR): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|mts|sh)$/.test(name) && !name.endsWith('.d.ts')) out.push(relative(dir, full));
    }
  };
  walk(dir);
  return out;
}

/** The text a marked block must show, or a problem. */
export function expectedText(
  block: CodeBlock,
  dir = SAMPLES_DIR,
): { ok: true; value: string } | { ok: false; error: string } {
  const ref = block.sample!;
  const file = join(dir, ref.file);
  if (!existsSync(file)) return { ok: false, error: `its sample file samples/${ref.file} does not exist` };
  try {
    return { ok: true, value: sampleText(readFileSync(file, 'utf8'), ref.region) };
  } catch (error) {
    return { ok: false, error: `samples/${ref.file}: ${(error as Error).message}` };
  }
}

export function checkSamples(documents: readonly Document[] = readDocuments(), dir = SAMPLES_DIR): SampleProblem[] {
  const problems: SampleProblem[] = [];
  const shown = new Set<string>();
  for (const doc of documents) {
    for (const block of codeBlocks(doc.text)) {
      const where = `${doc.path}:${block.line}`;
      if (!block.sample) {
        if (CODE_LANGS.has(block.lang))
          problems.push({
            where,
            message: `a ${block.lang} block that no file holds, so CI never compiles or runs it: move it into apps/doc-check/samples/ and put <!-- sample: <file>[#region] --> on the line before the fence`,
          });
        continue;
      }
      shown.add(block.sample.file);
      const expected = expectedText(block, dir);
      if (!expected.ok) problems.push({ where, message: expected.error });
      else if (expected.value !== block.code)
        problems.push({
          where,
          message: `the block differs from samples/${block.sample.file}${block.sample.region ? `#${block.sample.region}` : ''}: run \`pnpm samples:sync\` to copy the file into the document (edit the file, not the block)`,
        });
    }
  }
  for (const file of sampleFiles(dir)) {
    // Operation samples are shown by the API reference (x-codeSamples), not by a document.
    if (file.startsWith('operations/') || file.startsWith('support/')) continue;
    if (!shown.has(file))
      problems.push({ where: `samples/${file}`, message: 'no document shows this sample: show it, or delete it' });
  }
  return problems;
}
