// Text someone else chose (a tenant's answer, a respondent's words in an error, a receiver's reply,
// a header value) on its way to a terminal or a log line: control characters (ANSI escapes, CR,
// BEL, the C1 set), line separators and bidirectional marks are written as escapes, so the text
// can neither move the cursor, rewrite or forge a line, nor reorder what is shown. The one
// sanitiser of the toolkit.

/** C0 controls, DEL, C1 controls, LRM/RLM, the Unicode line/paragraph separators and bidi controls. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
/** The same but tab and newline, for text shown as lines of its own (a body). */
const UNPRINTABLE_BUT_LINES =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
/** What JSON.stringify leaves raw inside strings (it escapes C0 itself; its own newlines are layout). */
const UNPRINTABLE_IN_JSON = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** One character `printable` escapes (to test a value without copying it). */
export const UNPRINTABLE_CHAR = new RegExp(UNPRINTABLE.source, 'u');

const hex = (char: string, width: number) => char.charCodeAt(0).toString(16).padStart(width, '0');
const asText = (char: string) => (char.charCodeAt(0) <= 0xff ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`);
const asJson = (char: string) => `\\u${hex(char, 4)}`;

export interface PrintableOptions {
  /** Keep tabs and newlines (text printed as lines of its own). Default: escaped, one line out. */
  readonly keepLines?: boolean;
  /** At most this many characters (whole code points), then how many more there were. */
  readonly max?: number;
}

/**
 * `text` with every control, separator or bidi character written as `\xHH` or `\uHHHH`.
 * Backslashes are left alone, so applying it twice changes nothing (text passes several layers);
 * the price is that a literal `\x1b` typed by someone looks like an escaped one, which is harmless.
 */
export function printable(text: string, { keepLines = false, max = Infinity }: PrintableOptions = {}): string {
  let kept = text;
  let more = 0;
  if (text.length > max) {
    const points = Array.from(text);
    if (points.length > max) {
      kept = points.slice(0, max).join('');
      more = points.length - max;
    }
  }
  const escaped = kept.replace(keepLines ? UNPRINTABLE_BUT_LINES : UNPRINTABLE, asText);
  return more > 0 ? `${escaped}… (${more} more characters)` : escaped;
}

/** JSON for a terminal: `JSON.stringify` escapes C0 controls but leaves DEL, C1 and bidi marks raw. */
export function printableJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNPRINTABLE_IN_JSON, asJson);
}
