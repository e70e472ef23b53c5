// Checks of the helpers' arguments: a wrong id or key fails before any request, with its name,
// not as a confusing 404 from the service.
import type { AnswerValue } from '@forms-api/types';
import { invalidOption } from './errors.js';

export function id(value: unknown, name: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw invalidOption(name, `must be a positive integer id (got ${describe(value)}).`);
}

/**
 * The one object argument of `submissions.update` and `updateKeeping`: the form and submission
 * ids by name (two positional ids were easy to swap), and the answers under `answersKey`.
 */
export function submissionUpdate<K extends 'answers' | 'changes'>(
  value: unknown,
  method: string,
  answersKey: K,
): { form: number; submission: number } & Record<K, { [fieldId: string]: AnswerValue }> {
  const keys = ['form', 'submission', answersKey];
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalidOption(
      'update',
      `${method} takes one object { ${keys.join(', ')} } (got ${describe(value)}), then the options.`,
    );
  known(value, keys, `${method}'s update`);
  const fields = value as Record<string, unknown>;
  const answers = fields[answersKey];
  if (answers === null || typeof answers !== 'object' || Array.isArray(answers))
    throw invalidOption(answersKey, 'must be an object of answers keyed by field id.');
  return {
    form: id(fields['form'], 'form'),
    submission: id(fields['submission'], 'submission'),
    [answersKey]: answers,
  } as { form: number; submission: number } & Record<K, { [fieldId: string]: AnswerValue }>;
}

export function known(value: object, keys: readonly string[], where: string): void {
  if (value === null || typeof value !== 'object') throw invalidOption('query', `${where} must be an object.`);
  for (const key of Object.keys(value))
    if (!keys.includes(key)) throw invalidOption(key, `is not a parameter of ${where}; use ${keys.join(', ')}.`);
}

export function describe(value: unknown): string {
  return typeof value === 'string'
    ? `a string of ${value.length} characters`
    : typeof value === 'number'
      ? String(value)
      : typeof value;
}
