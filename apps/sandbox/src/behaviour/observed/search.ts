// Search as the service runs it on PostgreSQL (FormSubmissionController.php:41-53): a submission
// matches when any top-level answer, as its JSON text, matches `%term%` with ILIKE. So keys inside
// structured answers match too, `%` and `_` in the term are wildcards (a backslash escapes them),
// case does not matter, null answers never match, and the term "0" is no search at all.
import type { SubmissionSearch } from '../../store/search.js';

const SEPARATOR = '\u0000';

/** PostgreSQL's text of a jsonb value: `", "` and `": "` separators, object keys by length, then bytes. */
function jsonbText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  const keys = Object.keys(value).sort(
    (a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonbText((value as Record<string, unknown>)[k])}`).join(', ')}}`;
}

/** `jsonb_each_text`: a string answer is its text, any other its JSON text; null is SQL NULL. */
const answerText = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : typeof value === 'string' ? value : jsonbText(value);

/** One `%`-free stretch of the pattern: a literal, or code points where undefined is `_` (any one). */
type Piece = { literal: string } | { codePoints: ReadonlyArray<number | undefined> };

/** The pieces of `%term%` between its `%`s: `_` any one character, `\\x` a literal x. */
function likePieces(term: string): Piece[] {
  const pieces: Piece[] = [];
  let current: Array<number | undefined> = [];
  const close = () => {
    if (current.length > 0)
      pieces.push(
        current.includes(undefined)
          ? { codePoints: current }
          : { literal: String.fromCodePoint(...(current as number[])) },
      );
    current = [];
  };
  const chars = [...term];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\\' && i + 1 < chars.length) current.push(chars[++i]!.codePointAt(0)!);
    else if (ch === '%') close();
    else current.push(ch === '_' ? undefined : ch.codePointAt(0)!);
  }
  close();
  return pieces;
}

/**
 * Where a piece with `_` first ends in `text` from `from` (-1: nowhere), by shift-and: one bit per
 * position of the piece, 32 to a word, so each character of the text costs the same whatever the
 * term (no backtracking: the time is the text's length times the piece's words).
 */
function wildcardFinder(codePoints: ReadonlyArray<number | undefined>): (text: string, from: number) => number {
  const words = Math.ceil(codePoints.length / 32);
  const any = new Uint32Array(words);
  codePoints.forEach((cp, i) => cp === undefined && (any[i >>> 5]! |= 1 << (i & 31)));
  const masks = new Map<number, Uint32Array>();
  codePoints.forEach((cp, i) => {
    if (cp === undefined) return;
    if (!masks.has(cp)) masks.set(cp, Uint32Array.from(any));
    masks.get(cp)![i >>> 5]! |= 1 << (i & 31);
  });
  const lastWord = (codePoints.length - 1) >>> 5;
  const lastBit = 1 << ((codePoints.length - 1) & 31);
  return (text, from) => {
    const state = new Uint32Array(words);
    for (let i = from; i < text.length;) {
      const cp = text.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
      const mask = masks.get(cp) ?? any;
      let carry = 1;
      for (let w = 0; w < words; w++) {
        const out = state[w]! >>> 31;
        state[w] = ((state[w]! << 1) | carry) & mask[w]!;
        carry = out;
      }
      if (state[lastWord]! & lastBit) return i;
    }
    return -1;
  };
}

/**
 * A test of one answer's text for `%term%` (ILIKE without case, which the texts and the term have
 * dropped already). Each piece is placed at its first match after the one before: with `%` on both
 * ends, if any placement matches, the leftmost one does, so nothing is ever retried. The term comes
 * from the query, so it never becomes a RegExp.
 */
export function likeMatcher(term: string): (answerText: string) => boolean {
  const finders = likePieces(term).map((piece) => {
    if ('literal' in piece) {
      const { literal } = piece;
      return (text: string, from: number) => {
        const at = text.indexOf(literal, from);
        return at < 0 ? -1 : at + literal.length;
      };
    }
    return wildcardFinder(piece.codePoints);
  });
  return (answerText) => {
    let from = 0;
    for (const find of finders) if ((from = find(answerText, from)) < 0) return false;
    return true;
  };
}

export const ILIKE_SEARCH: SubmissionSearch = {
  // PHP's empty(): "0" is empty, so `search=0` searches nothing (ledger: submissions-search-zero-ignored).
  term: (value) => (value && value !== '0' ? value.toLowerCase() : undefined),
  // One text per top-level answer, each after a separator; no answer at all is the empty text.
  textOf: (answers) =>
    Object.values(answers)
      .map(answerText)
      .filter((t): t is string => t !== undefined)
      .map((t) => `${SEPARATOR}${t.toLowerCase()}`)
      .join(''),
  matcher(term) {
    if (term.includes(SEPARATOR)) return () => false;
    const matches = likeMatcher(term);
    // `%` never spans two answers: each answer's text is matched on its own.
    return (text) => text.split(SEPARATOR).some((answer, i) => i > 0 && matches(answer));
  },
};
