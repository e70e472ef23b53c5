// Text from deliveries (error messages built from form answers, header values) on its way to a
// terminal or a log line: control characters (ESC, CR, BEL, the C1 set) and bidirectional
// overrides are shown as escapes, so they can neither move the cursor nor forge a line.

const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// What JSON.stringify leaves raw inside strings (it escapes C0 itself; its own newlines are layout).
const UNPRINTABLE_IN_JSON = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control or bidi character written as `\uXXXX` (a newline too: one line out). */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escape);
}

/** JSON for a terminal: `JSON.stringify` escapes C0 controls but leaves DEL, C1 and bidi marks raw. */
export function printableJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNPRINTABLE_IN_JSON, escape);
}
