// CSV cells that a spreadsheet shows as text and never runs. RFC 4180 quoting, and OWASP's CSV
// injection rule: a cell a spreadsheet would read as a formula gets a leading apostrophe.

/**
 * What a spreadsheet may take for the start of a formula (OWASP: `=`, `+`, `-`, `@`, tab, carriage
 * return, line feed), also after leading spaces, which some spreadsheets skip, and their fullwidth
 * forms, which some spreadsheets fold to ASCII.
 */
const FORMULA_START = /^(?:[\t\r\n]|[ \u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20])/;

/** One quoted cell: the text, with an apostrophe before it when it would start a formula. */
export function csvCell(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/**
 * One CSV record, CRLF-terminated as RFC 4180 has it. A number is written as it is (no number
 * starts a formula, and a negative one stays a number); every text is a quoted `csvCell`.
 */
export function csvRow(cells: readonly (string | number)[]): string {
  return `${cells.map((cell) => (typeof cell === 'number' && Number.isFinite(cell) ? String(cell) : csvCell(String(cell)))).join(',')}\r\n`;
}
