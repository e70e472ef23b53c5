// Text from outside the site's own sources (the drift ledger, the contract suite's report) placed
// into the Markdown the site renders: shown as written, never rendered as HTML, an image or a link.

/**
 * Characters Markdown or Redoc's renderer would act on outside a code span: HTML (`<`, `&`), images
 * and links (`!`, `[`, `]`), Markdoc tags (`{`, `}`), emphasis, table cells and the escape itself.
 */
const ACTIVE = /[\\<>&![\]{}*_|~]/g;

/**
 * `text` (one line) as Markdown that reads exactly as `text`. Its code spans (a backtick run closed
 * by a run of the same length, as CommonMark reads them) are kept: ledger prose marks identifiers
 * that way. Everything else is backslash-escaped, an unmatched backtick included.
 */
export function markdownText(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const tick = text.indexOf('`', i);
    if (tick < 0) {
      out += text.slice(i).replace(ACTIVE, '\\$&');
      break;
    }
    out += text.slice(i, tick).replace(ACTIVE, '\\$&');
    const run = /^`+/.exec(text.slice(tick))![0];
    const close = closingRun(text, tick + run.length, run.length);
    if (close < 0) {
      out += run.replace(/`/g, '\\`');
      i = tick + run.length;
    } else {
      // A code span's content is text to HTML already.
      out += text.slice(tick, close + run.length);
      i = close + run.length;
    }
  }
  return out;
}

/** Where a backtick run of exactly `length` starts at or after `from`, or -1. */
function closingRun(text: string, from: number, length: number): number {
  for (const match of text.slice(from).matchAll(/`+/g)) {
    if (match[0].length === length) return from + match.index;
  }
  return -1;
}

/**
 * `text` as one inline code span that shows it literally, backticks included: the fence is one
 * backtick longer than the longest run inside, padded with a space where the text starts or ends
 * with a backtick (CommonMark strips one space from each side). Line breaks become spaces.
 */
export function inlineCode(text: string): string {
  const flat = text.replace(/\s*\r?\n\s*/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Inline Markdown made by the two functions above, as a table cell: a `|` left (in a code span) is escaped, as GFM asks. */
export const tableCell = (markdown: string): string => markdown.replace(/(?<!\\)\|/g, '\\|');
