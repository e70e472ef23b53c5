// Command-line parsing for `forms-sandbox` and `forms-sandbox trigger`: node's parseArgs, with an
// unknown option answered by the known one it most likely meant (`--behavior`: `--behaviour`).
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line the command cannot run; the CLI prints its message and the help, and exits 2. */
export class UsageError extends Error {}

/** The known option nearest to `name` by edit distance, when it is near enough to be a typo. */
export function nearestOption(name: string, known: readonly string[]): string | undefined {
  let best: { option: string; distance: number } | undefined;
  for (const option of known) {
    const distance = editDistance(name.toLowerCase(), option);
    if (!best || distance < best.distance) best = { option, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.option : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** parseArgs over `args` (no positionals); a malformed line throws a UsageError saying what to change. */
export function parseOptions<const O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: false; strict: true }>>['values'] {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values;
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /^Unknown option '(-[^']*)'/.exec(message)?.[1];
    if (!unknown) throw new UsageError(message);
    const near = nearestOption(unknown.replace(/^-+/, ''), Object.keys(options));
    throw new UsageError(`unknown option ${unknown}${near ? `; did you mean --${near}?` : ''}`);
  }
}

/** A whole-number option, or a UsageError naming it. */
export function wholeNumber(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number (got ${raw}).`);
  return Number(raw);
}
