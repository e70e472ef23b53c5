// Submission search in `observed` against `contract`, over HTTP. Observed, as the service runs it
// on PostgreSQL: each top-level answer's JSON text ILIKE '%term%', so it is case-insensitive, keys
// inside structured answers and the JSON punctuation of lists match, `%` and `_` are wildcards,
// and `search=0` is no search. Contract: a case-insensitive substring of answer values only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fieldIds, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
beforeAll(async () => {
  sbs = await sideBySide();
});
afterAll(() => sbs.close());

type Which = 'contract' | 'observed';
const search = async (which: Which, formId: number, term: string) => {
  const { status, body } = await call(
    sbs[which].baseUrl,
    'GET',
    `/open/forms/${formId}/submissions?per_page=-1&search=${encodeURIComponent(term)}`,
    { token: sbs[which].tokens.read },
  );
  expect(status).toBe(200);
  return body.meta.total as number;
};
const both = async (formId: number, term: string) => ({
  observed: await search('observed', formId, term),
  contract: await search('contract', formId, term),
});

describe('search', () => {
  it('is case-insensitive in both, non-ASCII letters included', async () => {
    for (const [lower, upper] of [
      ['jane', 'JANE'],
      ['zürich', 'ZÜRICH'],
    ] as const) {
      const [a, b] = [await both(11, lower), await both(11, upper)];
      expect(a.observed, lower).toBeGreaterThan(0);
      expect(b, upper).toEqual(a);
    }
  });

  it('submissions-search-matches-keys-and-wildcards: matches keys inside a structured answer in observed (the matrix rows of form 14), values only in contract', async () => {
    expect(await both(14, 'morning')).toEqual({ observed: 24, contract: 0 });
    // The values match in both.
    expect(await both(14, 'not attending')).toEqual({ observed: 12, contract: 12 });
    // A list answer is matched as its JSON text, separators included (multi_select on form 12).
    const lists = await both(12, '", "');
    expect(lists.observed).toBeGreaterThan(0);
    expect(lists.contract).toBe(0);
  });

  it('submissions-search-matches-keys-and-wildcards: reads % and _ as wildcards in observed, as literals in contract', async () => {
    const jane = await both(11, 'jane');
    expect(await both(11, 'j_ne')).toEqual({ observed: jane.observed, contract: 0 });
    // `%` spans any run within one answer: "Jane Doe" and "jane.doe…@example.com" alike.
    const [spanning, spaced] = [await both(11, 'ja%do'), await both(11, 'jane do')];
    expect(spaced.observed).toBeGreaterThan(0);
    expect(spanning.observed).toBeGreaterThanOrEqual(spaced.observed);
    expect(spanning.contract).toBe(0);
    // `%` alone matches every submission with an answer; a backslash makes it a literal again.
    expect(await both(15, '%')).toEqual({ observed: 12, contract: 0 });
    expect(await both(15, '\\%')).toEqual({ observed: 0, contract: 0 });
  });

  it('never matches the top-level keys (field ids) in either', async () => {
    const [nameId] = Object.values(await fieldIds(sbs.observed, 15));
    expect(await both(15, nameId!)).toEqual({ observed: 0, contract: 0 });
  });

  it('submissions-search-zero-ignored: search=0 lists everything in observed; contract searches for "0"', async () => {
    // Form 15's answers (names and tiers) hold no digit.
    expect(await both(15, '0')).toEqual({ observed: 12, contract: 0 });
    expect(await both(15, '00')).toEqual({ observed: 0, contract: 0 });
  });
});
