// Submission search: a case-insensitive substring of answer values (nested values too, never keys).
// Each submission's values are lowercased once into a text that searches scan; the store drops a
// submission's text when its answers change.

// No answer value a person types holds this character, so a term cannot match across two values.
const SEPARATOR = '\u0000';

function collect(value: unknown, into: string[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) for (const v of value) collect(v, into);
  else if (typeof value === 'object') for (const v of Object.values(value)) collect(v, into);
  else into.push(String(value).toLowerCase());
}

export function searchTextOf(answers: Record<string, unknown>): string {
  const values: string[] = [];
  collect(answers, values);
  return values.join(SEPARATOR);
}

/** A needle for `matcherFor`: the term trimmed and lowercased, or undefined when there is nothing to search. */
export function searchNeedle(term: string | undefined): string | undefined {
  const needle = term?.trim().toLowerCase();
  return needle ? needle : undefined;
}

/** Whether a submission (its search text, or its answers) matches the needle. */
export function matcherFor(needle: string): (text: string, answers: Record<string, unknown>) => boolean {
  // A term holding the separator itself is judged value by value (never the case in practice).
  if (needle.includes(SEPARATOR)) return (_text, answers) => searchTextOf(answers).split(SEPARATOR).some((v) => v.includes(needle));
  return (text) => text.includes(needle);
}
