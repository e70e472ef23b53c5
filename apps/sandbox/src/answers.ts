// Checks answers against the form's fields (type by type, as the service validates them) and
// turns them into stored values: file entries become stored file names.
import type { Field, Form } from './model.js';

const META_KEYS = new Set(['completion_time', 'is_partial', 'submission_hash', 'submission_id', 'tracking_parameters']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

export interface AnswerCheck {
  answers: Record<string, unknown>;
  errors: Record<string, string[]>;
}

function check(field: Field, value: unknown): { value?: unknown; error?: string } {
  if (value === null || value === '') return { value: null };
  const label = `The ${field.name}`;
  switch (field.type) {
    case 'text': case 'rich_text': case 'hidden': case 'phone_number':
      return typeof value === 'string' ? { value } : { error: `${label} must be a valid text.` };
    case 'email':
      return typeof value === 'string' && EMAIL.test(value) ? { value } : { error: `${label} must be a valid email address.` };
    case 'url':
      return typeof value === 'string' && URL.canParse(value) ? { value } : { error: `${label} format is invalid.` };
    case 'number': case 'rating': case 'scale': case 'slider':
      return typeof value === 'number' && Number.isFinite(value) ? { value } : { error: `${label} must be a number.` };
    case 'checkbox':
      return typeof value === 'boolean' ? { value } : { error: `${label} field must be true or false.` };
    case 'date':
      return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value)) ? { value } : { error: `${label} is not a valid date.` };
    case 'select': {
      const names = field.select?.options.map((o) => o.name) ?? [];
      return typeof value === 'string' && names.includes(value) ? { value } : { error: `The selected ${field.name} is invalid.` };
    }
    case 'multi_select': {
      const names = field.multi_select?.options.map((o) => o.name) ?? [];
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && names.includes(v)) ? { value } : { error: `The selected ${field.name} is invalid.` };
    }
    case 'files': case 'signature': {
      // Stored file names, or the file entries a list returned (kept by their name).
      const items = Array.isArray(value) ? value : [value];
      const names = items.map((item) => (typeof item === 'string' ? item : item && typeof item === 'object' && typeof (item as { file_name?: unknown }).file_name === 'string' ? (item as { file_name: string }).file_name : undefined));
      return names.every((n): n is string => typeof n === 'string' && n.length > 0) ? { value: names } : { error: `${label} must be a list of files.` };
    }
    default:
      return { error: `${label} takes no answer.` };
  }
}

/** Validates answers keyed by field id; unknown keys and required fields (when `requireAll`) are errors. */
export function checkAnswers(form: Form, body: Record<string, unknown>, requireAll: boolean): AnswerCheck {
  const fields = new Map(form.properties.map((f) => [f.id, f]));
  const answers: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(body)) {
    if (META_KEYS.has(key)) continue;
    const field = fields.get(key);
    if (!field || field.type.startsWith('nf-')) {
      errors[key] = [`The ${key} field is not a field of form ${form.id}.`];
      continue;
    }
    const result = check(field, value);
    if (result.error) errors[key] = [result.error];
    else answers[key] = result.value;
  }
  if (requireAll) {
    for (const field of form.properties) {
      if (field.required && (answers[field.id] === undefined || answers[field.id] === null) && !errors[field.id]) errors[field.id] = [`The ${field.name} field is required.`];
    }
  }
  return { answers, errors };
}
