// Checks numeric options once, at construction, so a typo fails at start-up with the option's name
// instead of misbehaving under load.
import { InboxError } from './errors.js';

export function assertPositiveInteger(name: string, value: unknown, { allowZero = false } = {}): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new InboxError(
      'invalid_options',
      `\`${name}\` must be a${allowZero ? ' non-negative' : ' positive'} integer (got ${JSON.stringify(value) ?? String(value)}).`,
      { context: { option: name } },
    );
  }
  return value;
}
