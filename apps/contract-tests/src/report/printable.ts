// Makes text that came from a tenant safe to print on a terminal or in a CI log: control characters
// (ANSI escapes, carriage returns, newlines), line separators and bidirectional overrides are shown as
// escapes, so a response cannot clear the screen, rewrite a line or forge one of the suite's own.

/** C0 controls, DEL, C1 controls, the Unicode line/paragraph separators and bidi controls. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** One such character (curl repros quote a value holding one with $'…', so their lines are printable as they are). */
export const UNPRINTABLE_CHAR = new RegExp(UNPRINTABLE.source, 'u');
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const escapeChar = (char: string): string => {
  const code = char.charCodeAt(0);
  return (
    NAMED[char] ??
    (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
  );
};

/**
 * One line of display text. Backslashes are left alone, so applying it twice changes nothing (the
 * text passes through several layers); the price is that a literal `\x1b` typed by a tenant looks
 * like an escaped one, which is harmless.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escapeChar);
}

/** Several lines the suite itself separated: each line made printable, the separators kept. */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}
