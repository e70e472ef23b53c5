// Every failure of the docs build is one DocsError (CONTRIBUTING.md, "Errors and results"): a
// class named for itself with a snake_case kind, a frozen context of what was judged, and a
// guard that recognises it from another copy of the module, where `instanceof` does not.
import { describe, expect, it } from 'vitest';
import { DocsError, isDocsError } from '../src/errors.ts';
import { parseGuide } from '../src/guides.ts';
import { parseServeArgs } from '../src/serve-args.ts';

describe('DocsError', () => {
  it('is what a failed step returns: kind, message, the context it judged, frozen', () => {
    const result = parseServeArgs(['--port', '70000']);
    expect(result.ok).toBe(false);
    const error = result.ok ? undefined : result.error;
    expect(error).toBeInstanceOf(DocsError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'DocsError',
      kind: 'usage',
      message: expect.stringMatching(/--port must be an integer from 0 to 65535/),
      context: { argument: '--port', value: '70000' },
    });
    expect(Object.isFrozen(error!.context)).toBe(true);
    expect(isDocsError(error)).toBe(true);

    const guide = parseGuide('quick-start.md', '# Quick start\n\ntext');
    expect(guide.ok || [guide.error.kind, guide.error.context]).toEqual(['guide_invalid', { file: 'quick-start.md' }]);
  });

  it('is recognised by isDocsError from another copy of the module, not by instanceof', async () => {
    // A query string makes the module loader evaluate the file again: a second copy of the module.
    const another = new URL('../src/errors.ts?another-copy', import.meta.url).href;
    const copy = (await import(another)) as typeof import('../src/errors.ts');
    expect(copy.DocsError).not.toBe(DocsError);
    const fromCopy = new copy.DocsError('spec_missing', 'no ledger', { context: { file: 'drift.json' } });
    expect(fromCopy).not.toBeInstanceOf(DocsError);
    expect(isDocsError(fromCopy)).toBe(true);
    expect(copy.isDocsError(new DocsError('sample_missing', 'no sample'))).toBe(true);
  });

  it('is not a plain { kind, message } value, nor any other Error', () => {
    expect(isDocsError({ kind: 'spec_missing', message: 'no ledger' })).toBe(false);
    expect(isDocsError(Object.assign(new Error('x'), { name: 'DocsError', kind: 'spec_missing' }))).toBe(false);
    expect(isDocsError(null)).toBe(false);
    expect(isDocsError('DocsError')).toBe(false);
  });
});
