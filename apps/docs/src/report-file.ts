// Reads a file the contract suite wrote (its report, its coverage) for a page of the site: absent
// is "not run", unreadable or of another shape is an error that says what to do (never guessed).
import { existsSync, readFileSync } from 'node:fs';
import { fail, type DocsResult } from './errors.ts';

/**
 * The JSON at `file` when `problemOf` finds nothing wrong with it, or `undefined` when there is no
 * file. `what` names the file in the error ("a contract suite report").
 */
export function readReportFile<T>(
  file: string,
  shownPath: string,
  what: string,
  problemOf: (json: unknown) => string | undefined,
): DocsResult<T | undefined> {
  if (!existsSync(file)) return { ok: true, value: undefined };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return fail(
      'report_invalid',
      `${shownPath} is not JSON (${(err as Error).message}): run the contract suite again, or delete the file to build the page without a run`,
      { context: { file: shownPath }, cause: err },
    );
  }
  const problem = problemOf(json);
  if (problem)
    return fail(
      'report_invalid',
      `${shownPath} is not ${what}: ${problem}. Run the contract suite again, or delete the file to build the page without a run`,
      { context: { file: shownPath, problem } },
    );
  return { ok: true, value: json as T };
}
