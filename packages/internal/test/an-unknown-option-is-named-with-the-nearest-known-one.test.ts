import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BrandedError } from '../src/index.js';
import { keysOf, refuseUnknownOptions, unknownOption } from '../src/option-names.js';

interface RetryOptions {
  retries?: number;
  baseDelayMs?: number;
}
const known = keysOf<RetryOptions>({ retries: true, baseDelayMs: true });

describe('unknownOption', () => {
  it('names a misspelt option by its path, with the known one it is nearest to', () => {
    expect(unknownOption({ retires: 1 }, known, 'retry', { prefix: 'retry.' })).toEqual({
      option: 'retry.retires',
      message:
        '`retry.retires` is not an option of retry. Did you mean `retry.retries`? The options of retry are retries, baseDelayMs.',
    });
  });

  it('lists the options when no known name is near', () => {
    expect(unknownOption({ verbose: true }, known, 'createThing')?.message).toBe(
      '`verbose` is not an option of createThing. The options of createThing are retries, baseDelayMs.',
    );
  });

  it("says the hint's words instead, where a name has one", () => {
    const hint = (name: string) => (name === 'attempts' ? ' `retries` counts the extra sends only.' : undefined);
    expect(unknownOption({ attempts: 3 }, known, 'retry', { hint })?.message).toBe(
      '`attempts` is not an option of retry. `retries` counts the extra sends only.',
    );
  });

  it('finds nothing in options that hold known names only, and always names an unknown one', () => {
    const knownNames = fc.subarray([...known]);
    fc.assert(
      fc.property(knownNames, fc.string({ minLength: 1 }), (names, extra) => {
        const given = Object.fromEntries(names.map((n) => [n, 1]));
        expect(unknownOption(given, known, 'x')).toBeUndefined();
        if (known.includes(extra)) return;
        const found = unknownOption({ ...given, [extra]: 1 }, known, 'x');
        expect(found?.option).toBe(extra);
        expect(found?.message.startsWith(`\`${extra}\` is not an option of x.`)).toBe(true);
      }),
    );
  });
});

describe('refuseUnknownOptions', () => {
  class ThingError extends BrandedError<'invalid_option', { option?: string }> {
    static override readonly brand = Symbol.for('test/thing-error');
  }

  it("throws the package's own invalid_option, naming the option in its context", () => {
    expect(() => refuseUnknownOptions(ThingError, { retires: 1 }, known, 'retry', { prefix: 'retry.' })).toThrow(
      expect.objectContaining({ kind: 'invalid_option', context: { option: 'retry.retires' } }),
    );
    expect(() => refuseUnknownOptions(ThingError, { retries: 1 }, known, 'retry')).not.toThrow();
  });
});
