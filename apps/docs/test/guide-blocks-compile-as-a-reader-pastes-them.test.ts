// A guide that shows parts (`#region`s) of one sample file must not lean on lines it does not
// show: the blocks, pasted in the guide's order into an empty file, compile under --strict (the
// quick start once used a `formId` defined outside every shown region: TS2552 four times).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { appDir } from '../src/build.ts';

const samplesDir = join(
  dirname(createRequire(import.meta.url).resolve('@forms-api/doc-check/package.json')),
  'samples',
);
const MARKED_BLOCK = /<!--\s*sample:\s*([\w./-]+?)#([\w-]+)\s*-->\s*\n```ts\n([\s\S]*?)\n```/g;

/** For each sample file a guide shows in parts: the parts, in the guide's order. */
function regionBlocks(markdown: string): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  for (const [, file, , code] of markdown.matchAll(MARKED_BLOCK))
    byFile.set(file!, [...(byFile.get(file!) ?? []), code!]);
  return byFile;
}

/** Type-checks `source` as if it were a file of doc-check's samples (so it resolves the built packages as a user's project would). */
function diagnostics(sampleFile: string, source: string): string[] {
  const tsconfig = join(samplesDir, '..', 'tsconfig.samples-node16.json');
  const { config } = ts.readConfigFile(tsconfig, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, dirname(tsconfig));
  // The packages' own .d.ts files are checked by doc-check's lint; here only the pasted code is.
  options.skipLibCheck = true;
  const virtual = join(samplesDir, dirname(sampleFile), '__pasted-from-the-guide__.ts');
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === virtual ? ts.createSourceFile(name, source, language) : read(name, language, ...rest);
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name === virtual || exists(name);
  const program = ts.createProgram([virtual], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === virtual)
    .map(
      (d) =>
        `TS${d.code} line ${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
}

const guides = readdirSync(join(appDir, 'guides')).filter((f) => f.endsWith('.md'));

describe('guide blocks shown from parts of a sample file', () => {
  it('the quick start shows its sample in parts', () => {
    expect(
      regionBlocks(readFileSync(join(appDir, 'guides/01-quick-start.md'), 'utf8')).get('client/quick-start.ts')?.length,
    ).toBeGreaterThanOrEqual(4);
  });

  for (const guide of guides) {
    const blocks = regionBlocks(readFileSync(join(appDir, 'guides', guide), 'utf8'));
    for (const [file, parts] of blocks) {
      it(`${guide}: the ${parts.length} blocks of ${file}, pasted in order, compile with --strict`, () => {
        expect(diagnostics(file, `${parts.join('\n\n')}\n`)).toEqual([]);
      }, 60_000);
    }
  }
});
