// Curl repros are redacted value by value and quoted last (curl.ts). Reports are redacted again as
// whole texts; that pass must never rewrite a quoted line (a rule eating a backslash can end a
// quote), so each repro is swapped for an unguessable marker while the text is rendered and
// redacted, and put back, encoded for the text it lands in, afterwards.
import { randomBytes } from 'node:crypto';
import type { RunReport } from './model.js';
import type { Redact } from './placeholders.js';

/** `render(report)` redacted with `redact`, its repros untouched by it (written through `encode`). */
export function redactKeepingRepros(
  report: RunReport,
  render: (report: RunReport) => string,
  redact: Redact,
  encode: (line: string) => string = (line) => line,
): string {
  // Letters only: nothing a redactor looks for (hex, base64 of a token) is likely to hide in it.
  const nonce = [...randomBytes(24)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
  const repros: string[] = [];
  const marked: RunReport = {
    ...report,
    results: report.results.map((r) => ({
      ...r,
      // The closing x keeps marker 1 from matching the start of marker 12.
      curl: r.curl.map((line) => `reprox${nonce}x${repros.push(line) - 1}x`),
    })),
  };
  return repros.reduce(
    (text, line, i) => text.split(`reprox${nonce}x${i}x`).join(encode(line)),
    redact(render(marked)),
  );
}
