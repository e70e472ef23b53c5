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

/** `%term%` as a regular expression over one answer's text: `%` any run, `_` one character, `\x` a literal x. */
function likePattern(term: string): RegExp {
  let source = '';
  for (let i = 0; i < term.length; i++) {
    const ch = term[i]!;
    if (ch === '\\' && i + 1 < term.length) source += escapeRegExp(term[++i]!);
    else if (ch === '%') source += `[^${SEPARATOR}]*`;
    else if (ch === '_') source += `[^${SEPARATOR}]`;
    else source += escapeRegExp(ch);
  }
  return new RegExp(source, 'u');
}
// Only syntax characters may be escaped in a Unicode pattern.
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

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
    const pattern = likePattern(term);
    return (text) => text !== '' && pattern.test(text);
  },
};
