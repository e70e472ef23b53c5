// Submission search. A search reads its term from the query, makes one text per submission from its
// answers (kept by the store until the answers change), and matches terms against those texts.
// The contract's search: a case-insensitive substring of answer values (nested values too, never
// keys); `%` and `_` are literal.
import type { QueryValue } from '../paging.js';

export interface SubmissionSearch {
  /** The term to search for, or undefined when the query asks for no search. */
  term(value: QueryValue): string | undefined;
  /** The text of a submission's answers that terms are matched against. */
  textOf(answers: Record<string, unknown>): string;
  /** A test of a submission's text for the term. */
  matcher(term: string): (text: string) => boolean;
}

/** Joins the texts of separate values, so that a term cannot match across two of them: no answer holds it. */
export const VALUE_SEPARATOR = '\u0000';

function collectValues(value: unknown, into: string[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) for (const v of value) collectValues(v, into);
  else if (typeof value === 'object') for (const v of Object.values(value)) collectValues(v, into);
  else into.push(String(value).toLowerCase());
}

export const CONTRACT_SEARCH: SubmissionSearch = {
  // An empty or blank term is no search (the spec: the same as none).
  term: (value) => (value ? value.toLowerCase() : undefined),
  textOf(answers) {
    const values: string[] = [];
    collectValues(answers, values);
    return values.join(VALUE_SEPARATOR);
  },
  // A term holding the separator would match across values; no value holds it, so nothing matches.
  matcher: (term) => (term.includes(VALUE_SEPARATOR) ? () => false : (text) => text.includes(term)),
};
