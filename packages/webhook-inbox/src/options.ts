// Checks options once, at construction, so a typo fails at start-up with the option's name
// instead of misbehaving under load (or being ignored: a misspelt option would keep its default).
import { integerOption, keysOf, refuseUnknownOptions } from '@forms-api/internal/option-names';
import { InboxError } from './errors.js';

/** `value` when it is a positive (or, `allowZero`, non-negative) integer; the inbox's `invalid_option` otherwise. */
export function assertPositiveInteger(name: string, value: unknown, { allowZero = false } = {}): number {
  return integerOption(InboxError, value, name, { min: allowZero ? 0 : 1 });
}

/**
 * Refuses an option name that is not in `known` (its keys, typed as the options type's, so a new
 * option cannot be forgotten here), naming the closest known one. `prefix` names the object
 * (`retry.`); `hint` may say more about a name, as `retry.retries` does.
 */
export function assertKnownOptions<T extends object>(
  given: object,
  known: Record<keyof T, true>,
  { prefix, where, hint }: { prefix?: string; where: string; hint?: (name: string) => string | undefined },
): void {
  refuseUnknownOptions(InboxError, given, keysOf<T>(known), where, { prefix, hint });
}
