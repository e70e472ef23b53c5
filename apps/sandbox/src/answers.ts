// Answers to a form: each checked against its field's type (as the service validates them) and
// turned into a stored value; the rules for a new answer and for an update; and what an update
// makes of a submission. The contract's: an update changes only the fields sent.
import { FieldErrors } from './http.js';
import type { Field, Form, Submission } from './model.js';
import type { Result } from '@forms-api/types';
import type { RuleContext } from './rule-context.js';
import { addSchemaErrors } from './schema-errors.js';
import type { SubmissionState } from './store/store.js';

/** Keys of an answer body that are not answers. */
export const META_KEYS = new Set([
  'completion_time',
  'is_partial',
  'submission_hash',
  'submission_id',
  'tracking_parameters',
]);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

export type CheckedAnswers = Result<Map<string, unknown>, FieldErrors>;

export interface AnswerRules {
  /** Checks a new answer to the form (public endpoint); a partial one need not hold the required fields. */
  create(ctx: RuleContext, form: Form, body: Record<string, unknown>, partial: boolean): CheckedAnswers;
  /** Checks the body of a submission update. */
  update(ctx: RuleContext, form: Form, body: Record<string, unknown>): CheckedAnswers;
  /** What the submission becomes after an update with these checked answers. */
  updated(current: Submission, answers: ReadonlyMap<string, unknown>, body: Record<string, unknown>): SubmissionState;
}

/** The stored value of one answer (null for none), or the message saying why the field refuses it. */
export function checkAnswer(field: Field, value: unknown): Result<unknown, string> {
  if (value === null || value === '') return { ok: true, value: null };
  const label = `The ${field.name}`;
  const when = (valid: boolean, message: string): Result<unknown, string> =>
    valid ? { ok: true, value } : { ok: false, error: message };
  switch (field.type) {
    case 'text':
    case 'rich_text':
    case 'hidden':
    case 'phone_number':
      return when(typeof value === 'string', `${label} must be a valid text.`);
    case 'email':
      return when(typeof value === 'string' && EMAIL.test(value), `${label} must be a valid email address.`);
    case 'url':
      return when(typeof value === 'string' && URL.canParse(value), `${label} format is invalid.`);
    case 'number':
    case 'rating':
    case 'scale':
    case 'slider':
      return when(typeof value === 'number' && Number.isFinite(value), `${label} must be a number.`);
    case 'checkbox':
      return when(typeof value === 'boolean', `${label} field must be true or false.`);
    case 'date':
      return when(
        typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value)),
        `${label} is not a valid date.`,
      );
    case 'select': {
      const names = field.select?.options.map((o) => o.name) ?? [];
      return when(typeof value === 'string' && names.includes(value), `The selected ${field.name} is invalid.`);
    }
    case 'multi_select': {
      const names = field.multi_select?.options.map((o) => o.name) ?? [];
      return when(
        Array.isArray(value) && value.every((v) => typeof v === 'string' && names.includes(v)),
        `The selected ${field.name} is invalid.`,
      );
    }
    case 'matrix': {
      // One column per row: {row: column}.
      const rows = field.rows ?? [];
      const columns = field.columns ?? [];
      const valid =
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.entries(value).every(
          ([row, column]) => rows.includes(row) && typeof column === 'string' && columns.includes(column),
        );
      return when(valid, `${label} must hold one of its columns for each of its rows.`);
    }
    case 'files':
    case 'signature': {
      // Stored file names, or the file entries a list returned (kept by their name).
      const items = Array.isArray(value) ? value : [value];
      const names = items.map((item) =>
        typeof item === 'string'
          ? item
          : item && typeof item === 'object' && typeof (item as { file_name?: unknown }).file_name === 'string'
            ? (item as { file_name: string }).file_name
            : undefined,
      );
      return names.every((n): n is string => typeof n === 'string' && n.length > 0)
        ? { ok: true, value: names }
        : { ok: false, error: `${label} must be a list of files.` };
    }
    default:
      return { ok: false, error: `${label} takes no answer.` };
  }
}

export interface AnswerCheck {
  /** Every required field must be answered. */
  requireAll: boolean;
  /** Keys that are neither fields of the form nor meta keys: refused (422) or dropped. */
  unknownKeys: 'refuse' | 'drop';
}

/** Answers keyed by field id, checked: each answer sent (null for one to clear), or every error found. */
export function checkAnswers(
  form: Form,
  body: Record<string, unknown>,
  check: AnswerCheck,
  errors = new FieldErrors(),
): CheckedAnswers {
  const fields = new Map(form.properties.map((f) => [f.id, f]));
  const answers = new Map<string, unknown>();
  for (const [key, value] of Object.entries(body)) {
    if (META_KEYS.has(key)) continue;
    const field = fields.get(key);
    if (!field || field.type.startsWith('nf-')) {
      if (check.unknownKeys === 'refuse') errors.add(key, `The ${key} field is not a field of form ${form.id}.`);
      continue;
    }
    const result = checkAnswer(field, value);
    if (result.ok) answers.set(key, result.value);
    else errors.add(key, result.error);
  }
  if (check.requireAll) {
    for (const field of form.properties) {
      if (field.required && (answers.get(field.id) ?? null) === null && !errors.has(field.id))
        errors.add(field.id, `The ${field.name} field is required.`);
    }
  }
  return errors.size > 0 ? { ok: false, error: errors } : { ok: true, value: answers };
}

/** The spec's schema check of the body, then the answers against the form. */
function checkedAgainstSpec(
  validator: RuleContext['validator'],
  operationId: 'createFormAnswer' | 'updateFormSubmission',
  form: Form,
  body: Record<string, unknown>,
  check: AnswerCheck,
): CheckedAnswers {
  const errors = new FieldErrors();
  addSchemaErrors(validator, operationId, body, errors);
  return checkAnswers(form, body, check, errors);
}

export const CONTRACT_ANSWERS: AnswerRules = {
  // The spec: unknown keys of a new answer are ignored by the service.
  create: (ctx, form, body, partial) =>
    checkedAgainstSpec(ctx.validator, 'createFormAnswer', form, body, { requireAll: !partial, unknownKeys: 'drop' }),
  // The contract: the body holds field ids of the form and only the fields to change.
  update: (ctx, form, body) =>
    checkedAgainstSpec(ctx.validator, 'updateFormSubmission', form, body, { requireAll: false, unknownKeys: 'refuse' }),
  // Only the fields sent change (null clears one); completion_time when sent; the status stays.
  updated(current, answers, body) {
    const next = { ...current.answers };
    for (const [key, value] of answers) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    const completionTime = 'completion_time' in body ? (body.completion_time as number | null) : current.completionTime;
    return { answers: next, completionTime, status: current.status };
  },
};
