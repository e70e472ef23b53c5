// The JSON Schema -> fast-check converter on its own: what it calls valid, the spec's validator
// (Ajv 2020, the one the suite judges with) accepts; the edges sit where the schema puts them;
// what it calls invalid, the validator refuses. Over every schema the spec's requests use.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isContractTestsError } from '../src/errors.js';
import { schemaArbitraries } from '../src/explore/schema-arbitrary.js';
import { loadSpec } from '../src/spec.js';

const spec = loadSpec();
const arbitraries = schemaArbitraries(spec.bundle);
const check = (key: string, schema: unknown, value: unknown) => spec.validator.validateSchema(key, schema, value).valid;

/** Every schema a request of the spec carries: query and path parameters, request bodies. */
function requestSchemas(): Array<{ name: string; schema: any }> {
  const out: Array<{ name: string; schema: any }> = [];
  for (const [path, item] of Object.entries<any>(spec.bundle.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (!operation?.operationId) continue;
      for (const p of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
        const parameter = arbitraries.resolve(p) as any;
        out.push({ name: `${operation.operationId} ${parameter.in} ${parameter.name}`, schema: parameter.schema });
      }
      const body = operation.requestBody
        ? (arbitraries.resolve(operation.requestBody) as any).content?.['application/json']?.schema
        : undefined;
      if (body) out.push({ name: `${operation.operationId} body (${method.toUpperCase()} ${path})`, schema: body });
    }
  }
  return out;
}

describe('schema -> fast-check', () => {
  const schemas = requestSchemas();

  it('finds the request schemas of the spec', () => {
    expect(schemas.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'listFormSubmissions query per_page',
        'listFormSubmissions query status',
        'createFormIntegration body (POST /open/forms/{form}/integrations)',
      ]),
    );
  });

  for (const { name, schema } of schemas) {
    it(`${name}: every generated value is valid`, () => {
      fc.assert(
        fc.property(arbitraries.valid(schema), (value) => check(name, schema, value)),
        { numRuns: 60, seed: 18 },
      );
    });
    it(`${name}: the forbidden values are refused by the validator`, () => {
      for (const { label, value } of arbitraries.invalid(schema))
        expect(check(name, schema, value), `${label}: ${JSON.stringify(value)?.slice(0, 80)}`).toBe(false);
    });
  }

  it('boundaries: minimum-1 and maximum+1 are refused, minimum and maximum allowed', () => {
    const schema = { type: 'integer', minimum: 1, maximum: 100 };
    const edges = Object.fromEntries(arbitraries.boundaries(schema).map((b) => [b.label, b.value]));
    expect(edges).toMatchObject({ 'minimum-1': 0, minimum: 1, maximum: 100, 'maximum+1': 101 });
    expect([0, 1, 100, 101].map((v) => check('bounds', schema, v))).toEqual([false, true, true, false]);
  });

  it('boundaries of strings: empty, shortest, longest and one past it', () => {
    const schema = { type: 'string', minLength: 3, maxLength: 8 };
    const edges = Object.fromEntries(arbitraries.boundaries(schema).map((b) => [b.label, b.value]));
    expect(edges).toMatchObject({
      empty: '',
      'minLength-1': 'aa',
      minLength: 'aaa',
      'longest (maxLength)': 'a'.repeat(8),
      'maxLength+1': 'a'.repeat(9),
    });
    expect(['', 'aa', 'aaa', 'a'.repeat(8), 'a'.repeat(9)].map((v) => check('strings', schema, v))).toEqual([
      false,
      false,
      true,
      true,
      false,
    ]);
  });

  it('invalid values: wrong types, numbers as text, arrays for scalars, outside the enum, missing required', () => {
    const labels = (schema: object) => arbitraries.invalid(schema).map((v) => v.label);
    expect(labels({ type: 'integer', minimum: 1 })).toEqual(
      expect.arrayContaining(['wrong type (string)', 'number as text', 'array for a scalar', 'fraction']),
    );
    expect(labels({ type: 'string', enum: ['completed', 'all'] })).toEqual(
      expect.arrayContaining(['outside the enum', 'wrong type (integer)']),
    );
    expect(
      labels({
        type: 'object',
        required: ['a', 'b'],
        properties: { a: { type: 'string' }, b: { type: 'integer' } },
        additionalProperties: false,
      }),
    ).toEqual(expect.arrayContaining(['missing required a', 'missing required b', 'unknown member']));
  });

  it('hostile strings: NUL and other control characters, and a very long one', () => {
    const values = arbitraries.hostile({ type: 'string' }).map((v) => v.value as string);
    expect(values.some((v) => v.includes('\u0000'))).toBe(true);
    expect(values.some((v) => v.includes('\u001b'))).toBe(true);
    expect(Math.max(...values.map((v) => v.length))).toBeGreaterThanOrEqual(1_000);
    // Over a bounded string the validator refuses the long one.
    expect(
      check(
        'bounded',
        { type: 'string', maxLength: 255 },
        values.find((v) => v.length >= 1_000),
      ),
    ).toBe(false);
  });

  it('follows $refs, and names what it cannot follow', () => {
    fc.assert(
      fc.property(
        arbitraries.valid({ $ref: '#/components/schemas/WebhookIntegrationInput' }),
        (v) => spec.validator.validateComponent('WebhookIntegrationInput', v).valid,
      ),
      { numRuns: 40, seed: 7 },
    );
    let thrown: unknown;
    try {
      arbitraries.valid({ $ref: '#/components/schemas/Nope' });
    } catch (error) {
      thrown = error;
    }
    expect(isContractTestsError(thrown) && thrown.kind).toBe('unsupported_schema');
    expect(() => arbitraries.valid({ $ref: 'https://elsewhere/schema.json' })).toThrow(/only local \$refs/);
  });

  it('is deterministic for a seed', () => {
    const schema = { $ref: '#/components/schemas/SubmissionUpdate' };
    expect(fc.sample(arbitraries.valid(schema), { numRuns: 5, seed: 42 })).toEqual(
      fc.sample(arbitraries.valid(schema), { numRuns: 5, seed: 42 }),
    );
  });
});
