// The names of an options object, and the one refusal of a name not among them: each package
// throws it as its own `invalid_option` naming the option, so a misspelt option reads the same in
// every package (and is never ignored, which would leave it at its default unseen).
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
