// Command-line parsing for `forms-sandbox` and `forms-sandbox trigger`: node's parseArgs, with an
// unknown option answered by the known one it most likely meant (`--behavior`: `--behaviour`).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName } from '@forms-api/internal/closest-name';

/** A command line the command cannot run; the CLI prints its message and the help, and exits 2. */
export class UsageError extends Error {}

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
    const near = closestName(unknown.replace(/^-+/, ''), Object.keys(options));
    throw new UsageError(`unknown option ${unknown}${near ? `; did you mean --${near}?` : ''}`);
  }
}

/** A whole-number option, or a UsageError naming it. */
export function wholeNumber(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number (got ${raw}).`);
  return Number(raw);
}
