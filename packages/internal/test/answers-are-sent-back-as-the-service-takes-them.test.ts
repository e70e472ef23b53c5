// The one rule for sending a listed submission's answers back in an update (the client's
// updateKeeping and the contract suite's restores): over any form and any listed answers, the body
// holds exactly the answers of the form's fields (no layout block, no listed meta key, nothing the
// form does not have), a file answer as its stored names in order, a signature as one name, every
// other answer untouched, and completion_time as whole seconds when there is one.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { answersToSendBack, NOT_ANSWERS } from '../src/answers.js';

const fileEntry = fc.record({ file_name: fc.string({ minLength: 1 }), file_url: fc.webUrl() });
const field = fc.record({
  id: fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom('__proto__', 'constructor', 'status')),
  type: fc.constantFrom('text', 'email', 'number', 'files', 'signature', 'nf-text', 'nf-image'),
});
const listedFor = (type: string): fc.Arbitrary<unknown> =>
  type === 'files'
    ? fc.oneof(
        fc.array(fileEntry),
        // Listed as an object keyed by position (ledger: submission-file-answer-object).
        fc.array(fileEntry).map((entries) => Object.fromEntries(entries.map((entry, i) => [String(i), entry]))),
        fc.constant(null),
      )
    : type === 'signature'
      ? fc.oneof(fc.array(fileEntry, { minLength: 1, maxLength: 1 }), fc.constant(null))
      : fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.string()));

const listed = fc.uniqueArray(field, { selector: (f) => f.id, maxLength: 8 }).chain((fields) =>
  fc.record({
    fields: fc.constant(fields),
    answers: fc.tuple(...fields.map((f) => listedFor(f.type))),
    strangers: fc.dictionary(fc.string({ minLength: 1 }), fc.string(), { maxKeys: 3 }),
    completionTime: fc.oneof(
      fc.constant(null),
      fc.integer({ min: 0, max: 10_000 }),
      fc.double({ min: 0, max: 1e4, noNaN: true }),
    ),
  }),
);

it('keeps exactly the answers of the form, as the service takes them back', () => {
  fc.assert(
    fc.property(listed, ({ fields, answers, strangers, completionTime }) => {
      const known = new Set(fields.map((f) => f.id));
      const data: Record<string, unknown> = Object.create(null);
      for (const [key, value] of Object.entries(strangers)) if (!known.has(key)) data[key] = value;
      fields.forEach((f, i) => (data[f.id] = answers[i]));
      const body = answersToSendBack(fields, data, completionTime);

      const expected = fields.filter((f) => !f.type.startsWith('nf-') && !NOT_ANSWERS.has(f.id));
      expect(
        Object.keys(body)
          .filter((k) => k !== 'completion_time')
          .sort(),
      ).toEqual(expected.map((f) => f.id).sort());
      for (const f of expected) {
        const value = data[f.id];
        const names = value && typeof value === 'object' ? Object.values(value).map((e: any) => e.file_name) : [];
        if (f.type === 'files') expect(body[f.id]).toEqual(value === null ? null : names);
        else if (f.type === 'signature') expect(body[f.id]).toEqual(names[0] ?? null);
        else expect(body[f.id]).toBe(value);
      }
      if (completionTime === null) expect('completion_time' in body).toBe(false);
      else expect(body.completion_time).toBe(Math.round(completionTime));
    }),
  );
});
