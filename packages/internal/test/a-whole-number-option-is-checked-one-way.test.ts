// The toolkit's one check of a whole-number option (`integerOption`): every package refuses the
// same values with the same sentence, as its own `invalid_option`, and never echoes a text it was
// given (a secret put in the wrong place would end up in a log).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BrandedError } from '../src/index.js';
import { integerOption } from '../src/option-names.js';

class ThingError extends BrandedError<'invalid_option', { option?: string }> {
  static override readonly brand = Symbol.for('test/thing-error');
}

const refusal = (value: unknown, range?: Parameters<typeof integerOption>[3]): ThingError => {
  try {
    integerOption(ThingError, value, 'maxThings', range);
  } catch (error) {
    return error as ThingError;
  }
  throw new Error(`${String(value)} was taken`);
};

describe('integerOption', () => {
  it('says what the option must be, what it got, and the hint', () => {
    expect(refusal(1.5).message).toBe('`maxThings` must be a positive integer (got 1.5).');
    expect(refusal(-1, { min: 0 }).message).toBe('`maxThings` must be a non-negative integer (got -1).');
    expect(refusal(101, { max: 100 }).message).toBe('`maxThings` must be an integer from 1 to 100 (got 101).');
    expect(refusal(Number.NaN, { unit: 'bytes', hint: 'Leave it out for 1 MiB.' }).message).toBe(
      '`maxThings` must be a positive integer number of bytes (got NaN). Leave it out for 1 MiB.',
    );
    expect(refusal(null).message).toBe('`maxThings` must be a positive integer (got null).');
    expect(refusal(1e21).message).toBe('`maxThings` must be a positive integer (got 1e+21).');
    expect(refusal('3').message).toBe('`maxThings` must be a positive integer (got a string of 1 character).');
    expect(refusal('7|secret-token').message).toBe(
      '`maxThings` must be a positive integer (got a string of 14 characters).',
    );
    expect(refusal(0)).toBeInstanceOf(ThingError);
    expect(refusal(0)).toMatchObject({ kind: 'invalid_option', context: { option: 'maxThings' } });
  });

  it('takes exactly the safe integers in range, and gives them back', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -5, max: 200 }), fc.double(), fc.constantFrom(2 ** 53, -(2 ** 53), 1e21)),
        fc.integer({ min: -3, max: 3 }),
        fc.option(fc.integer({ min: 3, max: 150 }), { nil: undefined }),
        (value, min, max) => {
          const range = { min, ...(max === undefined ? {} : { max }) };
          const fits = Number.isSafeInteger(value) && value >= min && value <= (max ?? Number.MAX_SAFE_INTEGER);
          if (fits) expect(integerOption(ThingError, value, 'maxThings', range)).toBe(value);
          else expect(refusal(value, range).context.option).toBe('maxThings');
        },
      ),
    );
  });
});
