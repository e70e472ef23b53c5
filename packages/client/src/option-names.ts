// The names of an options object, and the one refusal of a name that is not among them.
import { invalidOption } from './errors.js';

/** The names of `T`'s options, checked complete by the compiler: an option added to `T` must be added here. */
export const keysOf = <T>(keys: Record<keyof T, true>): ReadonlySet<string> => new Set(Object.keys(keys));

/** Refuses a name of `value` that is not `known`, as the option `<name>.<key>` (or `<key>` at the top). */
export function rejectUnknown(value: object, known: ReadonlySet<string>, where: string, name?: string): void {
  for (const key of Object.keys(value))
    if (!known.has(key))
      throw invalidOption(
        name === undefined ? key : `${name}.${key}`,
        `is not an option of ${where}; the options are: ${[...known].join(', ')}.`,
      );
}
