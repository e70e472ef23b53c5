// The indexed drift matcher gives exactly the verdicts of the straightforward one it replaced (kept
// here as the reference), on generated failures shaped like Ajv's errors against the real ledger.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchFailure, type DriftLedger, type DriftMatch, type DriftVerdict } from '../src/drift.js';
import type { ErrorObject, Failure } from '../src/model.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();

/** The matcher as it was before the index: nested find/some/filter/includes, recompiling patterns. */
function referenceMatch(ledger: DriftLedger, failure: Failure): DriftVerdict {
  const errorProperty = (error: ErrorObject): string | undefined => {
    const p = error.params as Record<string, unknown>;
    const value = p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty ?? p.propertyName;
    return typeof value === 'string' ? value : undefined;
  };
  const keyed = new Set([
    'required',
    'additionalProperties',
    'unevaluatedProperties',
    'dependentRequired',
    'propertyNames',
  ]);
  // Failures here carry no situation, so a match that names one never applies.
  const matches = (m: Extract<DriftMatch, { kind: 'schema' }>, operationId: string, error: ErrorObject): boolean =>
    m.when === undefined &&
    m.operationId === operationId &&
    new RegExp(`^(?:${m.keyword})$`).test(error.keyword) &&
    new RegExp(m.instancePath).test(error.instancePath) &&
    (!keyed.has(error.keyword) || (m.properties ?? []).includes(errorProperty(error) ?? ''));
  const combinators = new Set(['oneOf', 'anyOf', 'if', 'not']);
  const operationId = failure.operationId!;
  const errors = failure.schemaErrors ?? [];
  if (errors.length === 0) return { known: false, entryIds: [], unexplained: errors };
  const ids = new Set<string>();
  const unexplained: ErrorObject[] = [];
  for (const error of errors) {
    const entry = ledger.entries.find((e) =>
      e.match.some((m) => m.kind === 'schema' && matches(m, operationId, error)),
    );
    if (entry) ids.add(entry.id);
    else unexplained.push(error);
  }
  const residual = unexplained.filter(
    (e) =>
      !(
        combinators.has(e.keyword) &&
        ids.size > 0 &&
        errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath) && !unexplained.includes(o))
      ),
  );
  return { known: residual.length === 0 && ids.size > 0, entryIds: [...ids], unexplained: residual };
}

const segment = fc.constantFrom(
  '/data',
  '/0',
  '/1',
  '/10',
  '/tags',
  '/meta',
  '/submission_id',
  '/status',
  '/data/0',
  '/3/status',
  '',
);
const error: fc.Arbitrary<ErrorObject> = fc.record({
  instancePath: fc.array(segment, { maxLength: 4 }).map((parts) => parts.join('')),
  keyword: fc.constantFrom(
    'required',
    'type',
    'enum',
    'anyOf',
    'oneOf',
    'if',
    'not',
    'unevaluatedProperties',
    'additionalProperties',
    'format',
  ),
  params: fc.constantFrom(
    {},
    { missingProperty: 'is_pro' },
    { missingProperty: 'share_url' },
    { missingProperty: 'submitted_at' },
    { missingProperty: 'form_id' },
    { unevaluatedProperty: 'links' },
    { unevaluatedProperty: 'plan_tier' },
  ),
  schemaPath: fc.constant('#'),
  message: fc.constant('generated'),
});
const operationId = fc.constantFrom(
  'listWorkspaceForms',
  'updateFormSubmission',
  'listIntegrationEvents',
  'getForm',
  'listFormSubmissions',
);

describe('indexed drift matching', () => {
  it('gives the verdicts of the reference matcher', () => {
    fc.assert(
      fc.property(operationId, fc.array(error, { maxLength: 40 }), (op, errors) => {
        const failure: Failure = { kind: 'schema', message: 'generated', operationId: op, schemaErrors: errors };
        const expected = referenceMatch(spec.ledger, failure);
        const actual = matchFailure(spec.ledger, failure);
        expect(actual.known).toBe(expected.known);
        expect(actual.entryIds).toEqual(expected.entryIds);
        // The very same error objects, in the same order.
        expect(actual.unexplained.length).toBe(expected.unexplained.length);
        actual.unexplained.forEach((e, i) => expect(e).toBe(expected.unexplained[i]));
      }),
      { numRuns: 2_000 },
    );
  });
});
