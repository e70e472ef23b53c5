// Each rule on its fixture pair: the breaking variant is reported under that rule (with where,
// before and after), the compatible variant is not reported at all.
import { describe, expect, it } from 'vitest';
import { breakingChanges } from '../src/spec-rules.ts';
import { baseSpec, ruleCases } from './fixtures/rule-cases.ts';

function variant(mutate: (s: Record<string, any>) => void) {
  const spec = baseSpec();
  mutate(spec);
  return spec;
}

describe('the rule set', () => {
  it('finds nothing between a spec and itself', () => {
    expect(breakingChanges(baseSpec(), baseSpec())).toEqual([]);
  });

  it('has a fixture pair for every rule', () => {
    expect(new Set(ruleCases.map((c) => c.rule)).size).toBe(ruleCases.length);
    expect(ruleCases).toHaveLength(14);
  });

  describe.each(ruleCases)('$rule', ({ rule, breaking, compatible }) => {
    it('reports the breaking variant', () => {
      const found = breakingChanges(baseSpec(), variant(breaking));
      expect(found.map((c) => c.rule)).toContain(rule);
      const change = found.find((c) => c.rule === rule)!;
      expect(change.location).not.toBe('');
      expect(change.before).not.toBe(change.after);
    });

    it('lets the compatible variant through', () => {
      expect(breakingChanges(baseSpec(), variant(compatible))).toEqual([]);
    });
  });

  it('treats a shared enum by direction: a new value breaks responses, a removed one breaks requests', () => {
    const widened = breakingChanges(
      baseSpec(),
      variant((s) => s.components.schemas.Status.enum.push('spam')),
    );
    expect(widened.map((c) => c.rule)).toEqual(expect.arrayContaining(['response-enum-widened']));
    expect(widened.map((c) => c.rule)).not.toContain('request-enum-narrowed');
    const narrowed = breakingChanges(
      baseSpec(),
      variant((s) => (s.components.schemas.Status.enum = ['completed'])),
    );
    expect(narrowed.map((c) => c.rule)).toContain('request-enum-narrowed');
  });

  it('names the location and the values of a change', () => {
    const [change] = breakingChanges(
      baseSpec(),
      variant((s) => (s.components.schemas.Submission.properties.id.type = 'string')),
    );
    expect(change).toEqual({
      rule: 'response-type-changed',
      location: 'GET /forms/{id}/submissions response 200 application/json: data[].id',
      before: '"integer"',
      after: '"string"',
    });
  });
});
