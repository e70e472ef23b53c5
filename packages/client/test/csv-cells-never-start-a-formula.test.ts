// Issue 28: the export's CSV holds respondents' text, which must never become code in a
// spreadsheet (OWASP CSV injection) nor break out of its cell. Every cell reads back as the text,
// with an apostrophe before it exactly when it would start a formula.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell } from '../src/submissions.js';
import { csvRow } from '../src/csv.js';

/** RFC 4180 records, as a spreadsheet reads them. */
function parse(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      for (i++; ; i++) {
        if (i >= text.length) throw new Error('unterminated quote');
        if (text[i] === '"') {
          if (text[i + 1] !== '"') break;
          cell += '"';
          i++;
        } else cell += text[i];
      }
      i++;
    } else while (i < text.length && text[i] !== ',' && text[i] !== '\r') cell += text[i++];
    record.push(cell);
    if (text[i] === ',') i++;
    else if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else throw new Error(`unexpected ${JSON.stringify(text[i])} at ${i}`);
  }
  return records;
}

const FORMULA = /^(?:[\t\r\n]|[ \u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20])/;
const risky = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ' =', '\uff1d', '"', ',', "'", '\r\n');
const cellText = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.tuple(risky, fc.string()).map(([a, b]) => a + b),
);

describe('csvCell and csvRow', () => {
  it('read back as the text, prefixed with an apostrophe exactly when it would start a formula', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(cellText, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })), {
          minLength: 1,
        }),
        (cells) => {
          const [record, ...rest] = parse(csvRow(cells));
          expect(rest).toEqual([]);
          expect(record).toHaveLength(cells.length);
          cells.forEach((cell, i) => {
            const read = record![i]!;
            if (typeof cell === 'number') return expect(Number(read)).toBe(cell === 0 ? 0 : cell);
            expect(read).toBe(FORMULA.test(cell) ? `'${cell}` : cell);
            expect(read).not.toMatch(FORMULA);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('quotes the classic payloads', () => {
    expect(csvCell('=HYPERLINK("https://evil.example")')).toBe('"\'=HYPERLINK(""https://evil.example"")"');
    expect(csvCell("@SUM(1+1)*cmd|' /C calc'!A0")).toBe("\"'@SUM(1+1)*cmd|' /C calc'!A0\"");
    expect(csvCell('-2+3')).toBe('"\'-2+3"');
    expect(csvCell('  =1')).toBe('"\'  =1"');
    expect(csvCell('Jane Doé')).toBe('"Jane Doé"');
    expect(csvRow([-5, 'a'])).toBe('-5,"a"\r\n');
  });
});
