// The names of an options object, the one refusal of a name not among them, and the one check of
// a whole-number option: each package throws them as its own `invalid_option` naming the option,
// so a misspelt or malformed option reads the same in every package (and is never ignored, which
// would leave it at its default unseen).
import { closestName } from './closest-name.js';

/** The names of `T`'s options, checked complete by the compiler: an option added to `T` must be added here. */
export const keysOf = <T>(keys: Record<keyof T, true>): readonly string[] => Object.keys(keys);

/** A name that is not an option: as `<prefix><name>`, and the sentence that says so. */
export interface UnknownOption {
  readonly option: string;
  readonly message: string;
}

/**
 * The first name of `given` that is not `known`, if any: "`retry.retires` is not an option of
 * retry. Did you mean `retry.retries`? The options of retry are …". `prefix` names the object the
 * name is in (`retry.`); `hint` may say more about a name than the closest one would.
 */
export function unknownOption(
  given: object,
  known: readonly string[],
  where: string,
  { prefix = '', hint }: { prefix?: string; hint?: (name: string) => string | undefined } = {},
): UnknownOption | undefined {
  const name = Object.keys(given).find((key) => !known.includes(key));
  if (name === undefined) return undefined;
  const near = closestName(name, known);
  const advice =
    hint?.(name) ??
    `${near ? ` Did you mean \`${prefix}${near}\`?` : ''} The options of ${where} are ${known.join(', ')}.`;
  return { option: `${prefix}${name}`, message: `\`${prefix}${name}\` is not an option of ${where}.${advice}` };
}

/** A package's error class, constructed the toolkit's one way (`new XxxError(kind, message, { context })`). */
type OptionErrorClass = new (kind: 'invalid_option', message: string, init: { context: { option: string } }) => Error;

/** Throws the package's `invalid_option` for the first name of `given` that is not `known` (`unknownOption`). */
export function refuseUnknownOptions(
  ErrorClass: OptionErrorClass,
  given: object,
  known: readonly string[],
  where: string,
  options?: { prefix?: string; hint?: (name: string) => string | undefined },
): void {
  const unknown = unknownOption(given, known, where, options);
  if (unknown) throw new ErrorClass('invalid_option', unknown.message, { context: { option: unknown.option } });
}

/** The range of a whole-number option, what it counts (`bytes`), and what more to say when refused. */
export interface IntegerRange {
  readonly min?: number;
  readonly max?: number;
  readonly unit?: string;
  readonly hint?: string;
}

/**
 * `value` when it is a whole number from `min` (default 1) to `max`, exactly representable (so
 * `1e21` is not one); otherwise throws the package's `invalid_option` naming it and showing what it
 * got: "`maxPages` must be a positive integer (got 1.5)."
 */
export function integerOption(
  ErrorClass: OptionErrorClass,
  value: unknown,
  name: string,
  { min = 1, max = Number.MAX_SAFE_INTEGER, unit, hint }: IntegerRange = {},
): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max) return value;
  const kind = unit ? `integer number of ${unit}` : 'integer';
  const what =
    max !== Number.MAX_SAFE_INTEGER
      ? `an ${kind} from ${min} to ${max}`
      : min === 0
        ? `a non-negative ${kind}`
        : min === 1
          ? `a positive ${kind}`
          : `an ${kind} from ${min}`;
  const hinted = hint ? ` ${hint}` : '';
  throw new ErrorClass('invalid_option', `\`${name}\` must be ${what} (got ${describeValue(value)}).${hinted}`, {
    context: { option: name },
  });
}

/** What a refused value was, without echoing a text (it may be a secret put in the wrong place). */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `a string of ${value.length} character${value.length === 1 ? '' : 's'}`;
  return value === null ? 'null' : typeof value;
}
