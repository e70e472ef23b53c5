// Checks answers against the form's fields (type by type, as the service validates them) and
// turns them into stored values: file entries become stored file names.
import { FieldErrors } from './http.js';
import type { Field, Form } from './model.js';
import { err, ok, type Result } from './result.js';

const META_KEYS = new Set(['completion_time', 'is_partial', 'submission_hash', 'submission_id', 'tracking_parameters']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The stored value of one answer, or the message saying why the field refuses it. */
function check(field: Field, value: unknown): Result<unknown, string> {
  if (value === null || value === '') return ok(null);
  const label = `The ${field.name}`;
  const when = (valid: boolean, message: string) => (valid ? ok(value) : err(message));
  switch (field.type) {
    case 'text': case 'rich_text': case 'hidden': case 'phone_number':
      return when(typeof value === 'string', `${label} must be a valid text.`);
    case 'email':
      return when(typeof value === 'string' && EMAIL.test(value), `${label} must be a valid email address.`);
    case 'url':
      return when(typeof value === 'string' && URL.canParse(value), `${label} format is invalid.`);
    case 'number': case 'rating': case 'scale': case 'slider':
      return when(typeof value === 'number' && Number.isFinite(value), `${label} must be a number.`);
    case 'checkbox':
      return when(typeof value === 'boolean', `${label} field must be true or false.`);
    case 'date':
      return when(typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value)), `${label} is not a valid date.`);
    case 'select': {
      const names = field.select?.options.map((o) => o.name) ?? [];
      return when(typeof value === 'string' && names.includes(value), `The selected ${field.name} is invalid.`);
    }
    case 'multi_select': {
      const names = field.multi_select?.options.map((o) => o.name) ?? [];
      return when(Array.isArray(value) && value.every((v) => typeof v === 'string' && names.includes(v)), `The selected ${field.name} is invalid.`);
    }
    case 'files': case 'signature': {
      // Stored file names, or the file entries a list returned (kept by their name).
      const items = Array.isArray(value) ? value : [value];
      const names = items.map((item) => (typeof item === 'string' ? item : item && typeof item === 'object' && typeof (item as { file_name?: unknown }).file_name === 'string' ? (item as { file_name: string }).file_name : undefined));
      return names.every((n): n is string => typeof n === 'string' && n.length > 0) ? ok(names) : err(`${label} must be a list of files.`);
    }
    default:
      return err(`${label} takes no answer.`);
  }
}

/**
 * Validates answers keyed by field id: unknown keys are errors, and so are missing required fields
 * when `requireAll`. The value holds each answer sent (null for an answer to clear).
 */
export function checkAnswers(form: Form, body: Record<string, unknown>, requireAll: boolean): Result<Map<string, unknown>, FieldErrors> {
  const fields = new Map(form.properties.map((f) => [f.id, f]));
  const answers = new Map<string, unknown>();
  const errors = new FieldErrors();
  for (const [key, value] of Object.entries(body)) {
    if (META_KEYS.has(key)) continue;
    const field = fields.get(key);
    if (!field || field.type.startsWith('nf-')) {
      errors.add(key, `The ${key} field is not a field of form ${form.id}.`);
      continue;
    }
    const result = check(field, value);
    if (result.ok) answers.set(key, result.value);
    else errors.add(key, result.error);
  }
  if (requireAll) {
    for (const field of form.properties) {
      if (field.required && (answers.get(field.id) ?? null) === null && !errors.has(field.id)) errors.add(field.id, `The ${field.name} field is required.`);
    }
  }
  return errors.size > 0 ? err(errors) : ok(answers);
}
