// Checks of the helpers' arguments: a wrong id or key fails before any request, with its name,
// not as a confusing 404 from the service.
import type { AnswerValue } from '@forms-api/types';
import { describeValue } from '@forms-api/internal/option-names';
import { invalidOption } from './errors.js';

export function id(value: unknown, name: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw invalidOption(name, `must be a positive integer id (got ${describeValue(value)}).`);
}

/**
 * A text path parameter (a slug): refused when it would not stay one segment of the operation's
 * path. `.` and `..` (also percent-encoded, `%2e`, or encoded twice) are dot segments that URL
 * parsing removes, and a `/` or a backslash splits the segment: either sends the request, token
 * included, to another path of the service (`forms.get('..')` was `GET /open/`).
 */
export function pathSegment(value: string, name: string): string {
  let decoded = value;
  // Up to three decodings: the service's, and those of proxies that decode again.
  for (let i = 0; i < 3 && decoded.includes('%'); i++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  if (decoded === '.' || decoded === '..' || /[/\\]/.test(decoded))
    throw invalidOption(
      name,
      `must be one path segment: not \`.\` or \`..\` (nor their percent-encoded forms), and no \`/\` or \`\\\`; nothing was sent.`,
    );
  return value;
}

/**
 * The one object argument of a method that names two ids (`submissions.update`, `updateKeeping`,
 * `integrations.update`, `delete`, `events`): positional ids were easy to swap, so each is named
 * and checked, every key is known, and the body, when the method takes one, is an object.
 */
export function namedIds<Id extends string, Body extends string = never>(
  value: unknown,
  shape: {
    /** The method, as a user calls it (`submissions.update`). */
    method: string;
    /** The parameter's name in the method's signature (`update`), the option a wrong value names. */
    argument: string;
    ids: readonly [Id, Id];
    /** The key of the body the method sends, if it sends one; `expected` says what it must be. */
    body?: Body;
    expected?: string;
  },
): Record<Id, number> & Record<Body, object> {
  const { method, argument, ids, body, expected } = shape;
  const fields = oneObject(value, method, argument, body ? [...ids, body] : ids);
  const named: Record<string, unknown> = {};
  for (const name of ids) named[name] = id(fields[name], name);
  if (body) named[body] = objectArgument(fields[body], body, expected);
  return named as Record<Id, number> & Record<Body, object>;
}

/** The one object argument of a method, with only the keys it takes, or an error naming it. */
export function oneObject(
  value: unknown,
  method: string,
  argument: string,
  keys: readonly string[],
): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalidOption(
      argument,
      `${method} takes one object { ${keys.join(', ')} } (got ${describeValue(value)}), then the options.`,
    );
  known(value, keys, `${method}'s ${argument}`);
  return value as Record<string, unknown>;
}

/** `submissions.update` and `updateKeeping`'s argument: the ids, and the answers under `answersKey`. */
export function submissionUpdate<K extends 'answers' | 'changes'>(
  value: unknown,
  method: string,
  answersKey: K,
): { form: number; submission: number } & Record<K, { [fieldId: string]: AnswerValue }> {
  return namedIds(value, {
    method,
    argument: 'update',
    ids: ['form', 'submission'],
    body: answersKey,
    expected: 'an object of answers keyed by field id',
  }) as { form: number; submission: number } & Record<K, { [fieldId: string]: AnswerValue }>;
}

/** A body argument: an object (not null, not an array), or an error naming it. */
export function objectArgument<T>(value: T, name: string, expected = 'an object'): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalidOption(name, `must be ${expected}.`);
  return value;
}

export function known(value: object, keys: readonly string[], where: string): void {
  if (value === null || typeof value !== 'object') throw invalidOption('query', `${where} must be an object.`);
  for (const key of Object.keys(value))
    if (!keys.includes(key))
      throw invalidOption(
        key,
        `is not a parameter of ${where}; ${keys.length > 0 ? `use ${keys.join(', ')}` : 'it takes none'}.`,
      );
}
