// CSV text as RFC 4180 writes it: a field holding a quote, a comma or a line break is enclosed in
// quotes with its quotes doubled; rows end with CRLF. Any other text (non-ASCII included) is kept
// as it is, so a reader that follows the RFC gets back exactly the strings written.
const NEEDS_QUOTES = /[",\r\n]/;

export const csvField = (value: string): string =>
  NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;

/** The rows as CSV text, each row ended by CRLF. */
export const csvText = (rows: ReadonlyArray<readonly string[]>): string =>
  rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
