// The one refusal of a name that is not an option, as the client's `invalid_option`.
import { unknownOption } from '@forms-api/internal/option-names';
import { FormsApiError } from './errors.js';

export { keysOf } from '@forms-api/internal/option-names';

/** Refuses a name of `value` that is not `known`, as the option `<prefix><key>`, with the nearest known name. */
export function rejectUnknown(value: object, known: readonly string[], where: string, prefix?: string): void {
  const unknown = unknownOption(value, known, where, { prefix });
  if (unknown) throw new FormsApiError('invalid_option', unknown.message, { context: { option: unknown.option } });
}
