// The list's `created_at` and an export's `since` are the same format, read by one parser: a time
// that does not exist (the 30th of February, 24:00) is refused by both, never rolled over to another
// day, and every real time reads back as itself in both.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { normaliseListedSubmission } from '../src/submission.js';
import { parseSince } from '../src/watermark.js';

const listed = (createdAt: string) =>
  normaliseListedSubmission(
    { id: 5, form_id: 2, data: { status: 'completed', created_at: createdAt } } as never,
    new Map(),
  );

it('refuses a created_at or a since that names a time that does not exist', () => {
  for (const impossible of [
    '2026-02-30 10:00:00',
    '2026-04-31 00:00:00',
    '2026-11-28 24:00:00',
    '2026-11-28 10:60:00',
  ]) {
    expect(() => listed(impossible), impossible).toThrow(/created_at/);
    expect(() => parseSince(impossible), impossible).toThrow(/since/);
  }
});

it('reads every real time alike in a created_at and a since (property)', () => {
  fc.assert(
    fc.property(
      fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
      fc.constantFrom(' ', 'T'),
      (date, separator) => {
        const second = Math.floor(date.getTime() / 1000) * 1000;
        const text = new Date(second).toISOString().slice(0, 19).replace('T', separator);
        expect(listed(text).createdAt!.getTime()).toBe(second);
        expect(parseSince(text).time).toBe(text.replace('T', ' '));
      },
    ),
  );
});
