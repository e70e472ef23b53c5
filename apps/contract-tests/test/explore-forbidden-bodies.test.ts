// The explorer's forbidden request bodies on their own: built from a valid body of each write, each
// is refused by the spec's validator (the one the suite judges with), and together they hold every
// class the issue names: wrong types, missing required members, values outside an enum, NUL and
// control characters, very long strings, arrays for scalars, numbers as text.
import { describe, expect, it } from 'vitest';
import { forbiddenBodies } from '../src/explore/request-bodies.js';
import { schemaArbitraries } from '../src/explore/schema-arbitrary.js';
import { loadSpec } from '../src/spec.js';
import { integrationBody } from '../src/suites/helpers.js';

const spec = loadSpec();
const arbitraries = schemaArbitraries(spec.bundle);
const valid = (name: string, body: unknown) =>
  spec.validator.validateSchema(`test ${name}`, { $ref: `#/components/schemas/${name}` }, body).valid;

const bases = {
  WebhookIntegrationInput: integrationBody({
    webhook_secret: 'a-secret-of-24-characters',
    webhook_headers: { 'X-Api-Key': 'k' },
  }),
  SubmissionUpdate: { '3700d380-197b-47b9-a008-3acc31bbd506': 'Jane Doe', completion_time: 74 },
} as const;

describe.each(Object.entries(bases))('forbidden bodies of %s', (name, base) => {
  const bodies = forbiddenBodies(spec, arbitraries, name, base as Record<string, unknown>);

  it('start from a valid body, and every one is refused by the validator', () => {
    expect(valid(name, base)).toBe(true);
    expect(bodies.length).toBeGreaterThan(5);
    expect(bodies.filter((b) => valid(name, b.body)).map((b) => b.label)).toEqual([]);
  });

  it('differ from each other and say what was changed', () => {
    expect(new Set(bodies.map((b) => JSON.stringify(b.body))).size).toBe(bodies.length);
    for (const b of bodies) expect(b.label).toMatch(/\S/);
  });
});

describe('the classes the issue names', () => {
  const labels = forbiddenBodies(spec, arbitraries, 'WebhookIntegrationInput', bases.WebhookIntegrationInput).map(
    (b) => b.label,
  );
  const submission = forbiddenBodies(spec, arbitraries, 'SubmissionUpdate', bases.SubmissionUpdate).map((b) => b.label);

  it.each([
    ['a whole body of a wrong type', /^body: wrong type/],
    ['a member of a wrong type', /^status: wrong type|^data: wrong type/],
    ['a missing required member', /^missing required (integration_id|status|data)$/],
    ['a value outside an enum', /^status: outside the enum$/],
    ['NUL and control characters', /: control characters "a\\u0000b"$/],
    ['a very long string', /very long string|maxLength\+1/],
    ['an array where a scalar is expected', /array for a scalar/],
    ['a number as text', /number as text/],
  ])('%s (webhook integration or submission update)', (_what, pattern) => {
    expect([...labels, ...submission].some((label) => pattern.test(label))).toBe(true);
  });

  it('a number as text on completion_time, refused by the contract (the service reads it as an integer: ledger)', () => {
    expect(submission).toContain('completion_time: number as text');
  });
});
