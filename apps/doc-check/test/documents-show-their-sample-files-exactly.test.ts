// Every TypeScript or JavaScript block of every README and guide is a sample file (or a region of
// one), shown exactly as the file has it; every sample file is shown somewhere. The files are what
// the other tests compile and run, so a block that is not one of them would go unchecked.
import { describe, expect, it } from 'vitest';
import { checkSamples } from '../src/check-samples.js';
import { readDocuments } from '../src/documents.js';
import { codeBlocks, rewriteBlocks, sampleText } from '../src/markdown.js';

describe('the documents', () => {
  it('show only sample files, each exactly as the file has it', () => {
    expect(checkSamples()).toEqual([]);
  });

  it('include every README and guide of the repository', () => {
    const paths = readDocuments().map((d) => d.path);
    for (const expected of [
      'README.md',
      'packages/client/README.md',
      'packages/webhook-verify/README.md',
      'apps/sandbox/README.md',
      'apps/docs/guides/01-quick-start.md',
      'apps/docs/guides/05-never-lose-a-submission.md',
    ])
      expect(paths).toContain(expected);
  });
});

describe('the check', () => {
  const doc = (text: string) => [{ path: 'README.md', text }];

  it('reports a code block that no file holds', () => {
    const problems = checkSamples(
      doc('# x\n\n```ts\nconst a = 1;\n```\n'),
      new URL('./fixtures/samples/', import.meta.url).pathname,
    );
    expect(problems.map((p) => p.where)).toContain('README.md:3');
    expect(problems[0]!.message).toMatch(/no file holds/);
  });

  it('reports a block that differs from its file, and a missing file or region', () => {
    const dir = new URL('./fixtures/samples/', import.meta.url).pathname;
    const problems = checkSamples(
      doc(
        '<!-- sample: demo.ts#greet -->\n```ts\nconsole.log("hello");\n```\n<!-- sample: gone.ts -->\n```ts\n```\n<!-- sample: demo.ts#nope -->\n```ts\n```\n',
      ),
      dir,
    );
    expect(problems.map((p) => p.message).join('\n')).toMatch(
      /differs from samples\/demo.ts#greet[\s\S]*gone.ts does not exist[\s\S]*no "#region nope"/,
    );
  });

  it('leaves shell, JSON and unmarked prose blocks alone', () => {
    expect(
      checkSamples(
        doc('```sh\npnpm test\n```\n```json\n{}\n```\n'),
        new URL('./fixtures/samples/', import.meta.url).pathname,
      ).filter((p) => p.where.startsWith('README')),
    ).toEqual([]);
  });
});

describe('markdown blocks and regions', () => {
  it('finds fences, their language and the marker right before them', () => {
    const blocks = codeBlocks(
      'text\n<!-- sample: a/b.ts#r1 -->\n\n```ts\nx\n```\n<!-- sample: c.ts -->\nprose\n```sh\ny\n```\n',
    );
    expect(blocks.map((b) => [b.lang, b.code, b.sample])).toEqual([
      ['ts', 'x', { file: 'a/b.ts', region: 'r1' }],
      ['sh', 'y', undefined],
    ]);
  });

  it('cuts a region without its markers, dedented, and drops region markers from a whole file', () => {
    const source = 'a\n// #region one\n  b\n  // #region inner\n  c\n  // #endregion\n// #endregion\nd\n';
    expect(sampleText(source, 'one')).toBe('b\nc');
    expect(sampleText(source, undefined)).toBe('a\n  b\n  c\nd');
  });

  it('rewrites marked blocks in place and nothing else', () => {
    const text = '# t\n<!-- sample: s.ts -->\n```ts\nold\n```\n```ts\nkeep\n```\n';
    expect(rewriteBlocks(text, codeBlocks(text), (b) => (b.sample ? 'new\nlines' : undefined))).toBe(
      '# t\n<!-- sample: s.ts -->\n```ts\nnew\nlines\n```\n```ts\nkeep\n```\n',
    );
  });
});
