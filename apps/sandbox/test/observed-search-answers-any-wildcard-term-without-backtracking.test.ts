// Issue 29, finding 3: `observed` search read `%` and `_` into a backtracking RegExp, so one GET
// with a read token (`search=%_%_%_%_%_%_%_%_%~`) held the sandbox for minutes. The LIKE pattern is
// now matched piece by piece, each piece at its first match, which a property test holds against
// a plain dynamic-programming reading of LIKE.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likeMatcher } from '../src/behaviour/observed/search.js';
import type { SandboxHandle } from '../src/index.js';
import { call, fieldIds, sandbox } from './support.js';

/** `text ILIKE '%term%'` by dynamic programming over code points (case already folded). */
function reference(term: string, text: string): boolean {
  type Token = { run: true } | { one: true } | { ch: string };
  const tokens: Token[] = [{ run: true }];
  const chars = [...term];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === '\\' && i + 1 < chars.length) tokens.push({ ch: chars[++i]! });
    else if (chars[i] === '%') tokens.push({ run: true });
    else if (chars[i] === '_') tokens.push({ one: true });
    else tokens.push({ ch: chars[i]! });
  }
  tokens.push({ run: true });
  const t = [...text];
  // can[j]: the tokens so far match the first j characters.
  let can = t.map(() => false).concat(false);
  can[0] = true;
  for (const token of tokens) {
    const next = can.map(() => false);
    for (let j = 0; j <= t.length; j++) {
      if ('run' in token) next[j] = can[j]! || (j > 0 && next[j - 1]!);
      else if (j > 0 && can[j - 1]) next[j] = 'one' in token || t[j - 1] === token.ch;
    }
    can = next;
  }
  return can[t.length]!;
}

describe('the LIKE matcher', () => {
  const alphabet = fc.constantFrom('a', 'b', '%', '_', '\\', 'é', '😀');
  const word = (max: number) => fc.array(alphabet, { maxLength: max }).map((a) => a.join(''));

  it('agrees with the reference on every small term and text', () => {
    fc.assert(
      fc.property(word(8), word(12), (term, text) => {
        expect(likeMatcher(term)(text)).toBe(reference(term, text));
      }),
      { numRuns: 5000 },
    );
  });

  it('finds a long term (pieces wider than one 32-bit word) in any text built from it', () => {
    // The text instantiates the pattern: `%` becomes any run, `_` any one character.
    const instance = fc
      .array(fc.oneof(fc.constant('%'), fc.constant('_'), fc.constantFrom('a', 'b', 'c')), {
        minLength: 30,
        maxLength: 120,
      })
      .chain((term) =>
        fc
          .tuple(
            word(6),
            fc.tuple(...term.map((ch) => (ch === '%' ? word(4) : ch === '_' ? alphabet : fc.constant(ch)))),
            word(6),
          )
          .map(([before, middle, after]) => ({ term: term.join(''), text: before + middle.join('') + after })),
      );
    fc.assert(
      fc.property(instance, ({ term, text }) => {
        expect(likeMatcher(term)(text)).toBe(true);
      }),
      { numRuns: 300 },
    );
    const seventy = '_'.repeat(70);
    expect(likeMatcher(`${seventy}b`)(`${'a'.repeat(70)}b`)).toBe(true);
    expect(likeMatcher(`${seventy}b`)(`${'a'.repeat(69)}b`)).toBe(false);
  });
});

describe('an observed search for a term of many wildcards', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await sandbox({ behaviour: 'observed' });
  });
  afterAll(() => sb.close());

  it('is answered, though a backtracking RegExp would take minutes over a long answer', async () => {
    // A 4,000-character answer: `%_%_%_%_%_%_%_%_%~` backtracks over every way to place 8 `_`s in it.
    const ids = await fieldIds(sb, 16);
    const stored = await call(sb.baseUrl, 'POST', '/forms/16/answer', {
      body: { [Object.values(ids)[0]!]: 'x'.repeat(4000) },
    });
    expect(stored.status).toBe(200);
    const hostile = encodeURIComponent('%_%_%_%_%_%_%_%_%~');
    const answered = await call(sb.baseUrl, 'GET', `/open/forms/16/submissions?search=${hostile}`, {
      token: sb.tokens.read,
    });
    expect(answered.status).toBe(200);
    expect(answered.body.meta.total).toBe(0);
    // The same shape without the impossible `~` finds the long answer.
    const found = await call(
      sb.baseUrl,
      'GET',
      `/open/forms/16/submissions?search=${encodeURIComponent('%_%_%_%_%_%_%_%_%')}`,
      {
        token: sb.tokens.read,
      },
    );
    expect(found.body.data.length).toBeGreaterThan(0);
  });
});
