// The spec's schema check of a request body, as field errors of a 422: one message per input key.
import type { OperationId } from '@forms-api/types';
import type { FieldErrors } from './http.js';
import type { RuleContext, SchemaError } from './rule-context.js';

/**
 * Adds to `errors` what the operation's request schema refuses in `body`, one message per input
 * key; `accept` drops a schema error the sandbox's configuration allows.
 */
export function addSchemaErrors(
  validator: RuleContext['validator'],
  operationId: OperationId,
  body: Record<string, any>,
  errors: FieldErrors,
  accept?: (error: SchemaError, body: Record<string, any>) => boolean,
): void {
  const result = validator.validateRequestBody(operationId, body);
  const refused = result.valid ? [] : result.errors.filter((e) => !accept?.(e, body));
  const before = errors.size;
  for (const e of refused) {
    // The branches of a composite schema are reported by their own errors.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const path = [
      ...e.instancePath.split('/').filter(Boolean),
      ...(e.params && 'missingProperty' in e.params ? [String(e.params.missingProperty)] : []),
    ];
    const key = path.join('.') || 'body';
    errors.add(key, `The ${key.replace(/^data\./, '').replaceAll('_', ' ')} field ${e.message}.`);
  }
  if (refused.length > 0 && errors.size === before) errors.add('body', 'The request body is invalid.');
}
