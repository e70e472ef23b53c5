// Text that came from a tenant, made safe to print on a terminal or in a CI log with the toolkit's
// one sanitiser (@forms-api/internal/printable); the suite adds only multi-line output.
import { printable } from '@forms-api/internal/printable';

export { printable, UNPRINTABLE_CHAR } from '@forms-api/internal/printable';

/** Several lines the suite itself separated: each line made printable, the separators kept. */
export function printableLines(text: string): string {
  return text
    .split('\n')
    .map((line) => printable(line))
    .join('\n');
}
