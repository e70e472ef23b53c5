// The one sanitiser, over any text: what it prints holds no character a terminal acts on, applying
// it twice changes nothing, every other character survives in order, and JSON stays JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printable, printableJson, UNPRINTABLE_CHAR } from '../src/printable.js';

const TERMINAL_ACTS_ON = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\u001b', '\r', '\n', '\t', '\u0007', '\u009b', '\u202e', '\u2066', '\u200f', '\u2028', '\\', 'x'),
    fc.string({ unit: 'grapheme', maxLength: 1 }),
  ),
  maxLength: 200,
});

describe('printable', () => {
  it('leaves nothing a terminal acts on, and is idempotent', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const shown = printable(text);
        expect(shown).not.toMatch(TERMINAL_ACTS_ON);
        expect(printable(shown)).toBe(shown);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every printable character in order, escaping the rest as \\xHH or \\uHHHH', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const expected = Array.from(text)
          .map((c) =>
            UNPRINTABLE_CHAR.test(c)
              ? c.charCodeAt(0) <= 0xff
                ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
                : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
              : c,
          )
          .join('');
        expect(printable(text)).toBe(expected);
      }),
      { numRuns: 300 },
    );
    expect(printable('a\u001b[2Jb\u202ec')).toBe('a\\x1b[2Jb\\u202ec');
  });

  it('keeps tabs and newlines only when asked, and cuts at whole code points', () => {
    expect(printable('a\tb\nc\rd', { keepLines: true })).toBe('a\tb\nc\\x0dd');
    expect(printable('a\tb\nc', {})).toBe('a\\x09b\\x0ac');
    expect(printable('😀😀😀', { max: 2 })).toBe('😀😀… (1 more characters)');
    expect(printable('abc', { max: 3 })).toBe('abc');
  });

  it('printableJson parses back to the same value and leaves nothing a terminal acts on', () => {
    fc.assert(
      fc.property(fc.dictionary(hostile, hostile, { maxKeys: 4 }), (value) => {
        for (const indent of [undefined, 2]) {
          const shown = printableJson(value, indent);
          expect(shown.replace(/\n/g, '')).not.toMatch(TERMINAL_ACTS_ON);
          expect(JSON.parse(shown)).toEqual(value);
        }
      }),
      { numRuns: 300 },
    );
  });
});
