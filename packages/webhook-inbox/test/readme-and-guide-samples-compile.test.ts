// Every TypeScript sample in the README and in the "Never lose a webhook" guide compiles, as
// printed, against the built package (imported by its published name, as a user would).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const documents = ['README.md', 'docs/never-lose-a-webhook.md'];

function samplesOf(document: string): string[] {
  const text = readFileSync(join(packageDir, document), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

describe.each(documents)('%s', (document) => {
  it('has TypeScript samples that compile as printed', () => {
    const samples = samplesOf(document);
    expect(samples.length).toBeGreaterThan(0);
    // Inside the package, so `@forms-api/webhook-inbox` resolves to itself (its exports) and the
    // frameworks to its devDependencies.
    const dir = mkdtempSync(join(packageDir, 'test', '.samples-'));
    try {
      const files = samples.map((sample, i) => {
        const file = join(dir, `sample-${i + 1}.mts`);
        writeFileSync(file, sample);
        return file;
      });
      const program = ts.createProgram(files, {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: ['node'],
        skipLibCheck: true,
      });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => {
        const where = d.file ? `${d.file.fileName.split('/').pop()}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
        return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
