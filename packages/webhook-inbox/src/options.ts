// Checks options once, at construction, so a typo fails at start-up with the option's name
// instead of misbehaving under load (or being ignored: a misspelt option would keep its default).
import { keysOf, refuseUnknownOptions } from '@forms-api/internal/option-names';
import { InboxError } from './errors.js';

export function assertPositiveInteger(name: string, value: unknown, { allowZero = false } = {}): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new InboxError(
      'invalid_option',
      `\`${name}\` must be a${allowZero ? ' non-negative' : ' positive'} integer (got ${JSON.stringify(value) ?? String(value)}).`,
      { context: { option: name } },
    );
  }
  return value;
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
