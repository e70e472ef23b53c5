// Text someone else chose (a receiver's answer, a sender's Content-Type) on its way to a terminal or
// a log line: bounded, with control characters and bidi overrides shown as escapes, so it cannot
// move the cursor, rewrite or forge a line, ring or flood it.

// C0 controls, DEL, C1 controls, line/paragraph separators and bidi overrides.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
// The same but tab and newline, for text printed as lines of its own (a body).
const UNPRINTABLE_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * At most `max` characters of `text` (whole code points), each control character shown as `\xHH`
 * or `\uHHHH`; tabs and newlines are kept only with `keepLines`.
 */
export function printable(text: string, max: number, { keepLines = false } = {}): string {
  const points = Array.from(text);
  const kept = points.length > max ? points.slice(0, max).join('') : text;
  const escaped = kept.replace(keepLines ? UNPRINTABLE_BUT_LINES : UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return points.length > max ? `${escaped}… (${points.length - max} more characters)` : escaped;
}
