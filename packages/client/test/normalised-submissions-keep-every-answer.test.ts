// Issue 28: whatever the field ids (prototype names included) and values, a listed submission's
// normalised answers hold exactly its answers, each joined with its field when the form has it;
// the webhook's the same. Nothing is dropped, nothing invented.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { normaliseListedSubmission, normaliseWebhookSubmission } from '../src/submission.js';

const NOT_ANSWERS = ['status', 'created_at', 'id', 'submission_id', 'ip_address'];
const fieldId = fc
  .oneof(fc.constantFrom('__proto__', 'constructor', 'toString'), fc.uuid(), fc.string({ minLength: 1, maxLength: 10 }))
  .filter((key) => !NOT_ANSWERS.includes(key));
const field = fc.record({
  type: fc.constantFrom('text', 'files', 'signature', 'checkbox', 'nf-text'),
  name: fc.string(),
});

it('keeps every answer and joins each with its field (property)', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.tuple(fieldId, fc.jsonValue(), fc.option(field, { nil: undefined })), {
        selector: ([id]) => id,
        maxLength: 8,
      }),
      (answers) => {
        const fields = new Map(answers.flatMap(([id, , f]) => (f ? [[id, f] as const] : [])));
        // Own keys, `__proto__` included, as JSON.parse defines them in a listed body (key order is JS's: integer-like first).
        const data: Record<string, unknown> = { status: 'partial', created_at: '2026-01-02 03:04:05', id: 5 };
        for (const [id, value] of answers) Object.defineProperty(data, id, { value, enumerable: true });
        const listed = normaliseListedSubmission({ id: 5, form_id: 2, completion_time: 3, data } as never, fields);
        expect(Object.keys(listed.answers).sort()).toEqual(answers.map(([id]) => id).sort());
        for (const [id, value, f] of answers) {
          const answer = listed.answers[id]!;
          expect(answer.value).toEqual(value);
          expect([answer.name, answer.type]).toEqual([f?.name ?? null, f?.type ?? null]);
          expect(answer.files === null).toBe(f?.type !== 'files' && f?.type !== 'signature');
        }
        const payload = {
          form_id: 2,
          form_title: 't',
          submission_id: 5,
          submission: [],
          data: {} as Record<string, unknown>,
        };
        for (const [id, value, f] of answers)
          Object.defineProperty(payload.data, id, {
            value: { value, name: f?.name ?? id, type: f?.type ?? 'text' },
            enumerable: true,
          });
        const hooked = normaliseWebhookSubmission(payload as never);
        expect(Object.keys(hooked.answers).sort()).toEqual(answers.map(([id]) => id).sort());
        expect(hooked.key).toBe(listed.key);
      },
    ),
    { numRuns: 300 },
  );
});
