// Answers as the service's AnswerFormRequest validates them, for a new answer and an update alike
// (FormSubmissionController.php:82 takes the same request class as the public answer), and what an
// update makes of a submission (StoreFormSubmissionJob): the answers sent replace all others.
import { randomUUID } from 'node:crypto';
import { checkAnswer, type AnswerRules, type CheckedAnswers } from '../../answers.js';
import { FieldErrors, HttpError } from '../../http.js';
import type { Field, Form } from '../../model.js';
import type { Result } from '@forms-api/types';
import type { RuleContext } from '../../rule-context.js';
import { ATTRIBUTION_PARAMETERS } from '../../attribution.js';

/** What Laravel's `accepted` rule takes for a required checkbox. */
const ACCEPTED: readonly unknown[] = ['yes', 'on', '1', 1, true, 'true'];
/** Laravel's `required`: null, an empty (trimmed) string and an empty list are no answer. */
const unanswered = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

export { ATTRIBUTION_PARAMETERS };

/** PHP's is_numeric: what Laravel's `numeric` accepts, numbers and numeric strings ("5", " 1.5e3"). */
const NUMERIC_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
/** Laravel's `boolean`: true, false, 0, 1, "0", "1" (AnswerFormRequest.php:232-233). */
const BOOLEAN_LIKE: readonly unknown[] = [true, false, 0, 1, '0', '1'];
/** Laravel's `integer` (filter_var FILTER_VALIDATE_INT): an integer or its decimal text. */
const isIntegerLike = (v: unknown) => Number.isInteger(v) || (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v));
/** StoreFormSubmissionJob.php:448: a signature value that looks like a file name. */
const FILE_NAME_LIKE = /^[/\w\-. ]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** StorageFileNameParser.php:42-70: whether a name is `<name>_<uuid>.<ext>` or a bare UUID, the formats a stored file has. */
const parsesAsStoredName = (name: string) => {
  if (UUID.test(name)) return true;
  const candidate = name.slice(name.lastIndexOf('_') + 1);
  return name.includes('_') && candidate.includes('.') && UUID.test(candidate.slice(0, candidate.indexOf('.')));
};

/** The stored name a signed file URL of this form names (its last segment, base64url), as StoreFormSubmissionJob.php:397-409 reads one back. */
function nameInFileUrl(ctx: RuleContext, form: Form, url: string): string | undefined {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  const name = Buffer.from(segment, 'base64url').toString('utf8');
  return ctx.store.holdsFile(form.id, name) ? name : undefined;
}

/** The 500 the service answers when its own code fails on an input (a PHP TypeError). */
const serverError = () => new HttpError(500, { message: 'Server Error' });

/**
 * A file answer as the service takes it (AnswerFormRequest.php:242-249, StorageFile.php:28-67,
 * StoreFormSubmissionJob.php:317-339): a list whose items are URLs (a listed `file_url` names its
 * stored file) or stored file names; anything else in the list makes StorageFileNameParser::parse
 * throw a TypeError, a 500, so file entries sent back as listed fail (audit D5); a name the form
 * does not hold is "Invalid file." under `<field>.<index>`. A URL not naming a file of the form is dropped.
 */
function fileAnswer(
  ctx: RuleContext,
  form: Form,
  field: Field,
  value: unknown,
  errors: FieldErrors,
): Result<unknown, string> {
  if (!Array.isArray(value)) return { ok: false, error: `The ${field.name} field must be an array.` };
  const stored: string[] = [];
  value.forEach((item, index) => {
    if (item === null || item === '') return;
    if (typeof item !== 'string' && typeof item !== 'number') throw serverError();
    const text = String(item);
    if (URL.canParse(text) && /^https?:/i.test(text)) {
      const name = nameInFileUrl(ctx, form, text);
      if (name !== undefined) stored.push(name);
      return;
    }
    if (parsesAsStoredName(text) && ctx.store.holdsFile(form.id, text)) stored.push(text);
    else errors.add(`${field.id}.${index}`, 'Invalid file.');
  });
  return { ok: true, value: stored };
}

/**
 * A signature as the service takes it (AnswerFormRequest.php:211-213, StoreFormSubmissionJob.php:445-459):
 * a string, else 422 (a list as listed is refused, audit D5). A stored file name keeps its file;
 * a data URL (`data:image/png;base64,…`) becomes a new `sign_<uuid>.png`; anything else, the
 * listed `file_url` included, clears the signature.
 */
function signatureAnswer(ctx: RuleContext, form: Form, field: Field, value: unknown): Result<unknown, string> {
  if (typeof value !== 'string') return { ok: false, error: `The ${field.name} field must be a string.` };
  if (FILE_NAME_LIKE.test(value))
    return { ok: true, value: parsesAsStoredName(value) && ctx.store.holdsFile(form.id, value) ? value : null };
  return { ok: true, value: value.split(',')[1] !== undefined ? `sign_${randomUUID()}.png` : null };
}

/** One answer as the service validates and stores it: Laravel's loose `numeric` and `boolean`, its file handling; else the shared check. */
function laravelAnswer(
  ctx: RuleContext,
  form: Form,
  field: Field,
  value: unknown,
  errors: FieldErrors,
): Result<unknown, string> {
  if (value === null || value === '') return { ok: true, value: null };
  switch (field.type) {
    case 'number':
    case 'rating':
    case 'scale':
    case 'slider':
      return (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && NUMERIC_TEXT.test(value))
        ? { ok: true, value }
        : { ok: false, error: `The ${field.name} must be a number.` };
    case 'checkbox':
      return BOOLEAN_LIKE.includes(value)
        ? { ok: true, value }
        : { ok: false, error: `The ${field.name} field must be true or false.` };
    case 'files':
      return fileAnswer(ctx, form, field, value, errors);
    case 'signature':
      return signatureAnswer(ctx, form, field, value);
    default:
      return checkAnswer(field, value);
  }
}

/**
 * AnswerFormRequest.php:59-151: per field of the form, in its order, `required` when the field is
 * required and not hidden (a checkbox must then be accepted, a rating at least 1), then its type;
 * then the captcha of a captcha form; then the meta keys. Keys that are not fields are dropped.
 */
function answerFormRequest(
  ctx: RuleContext,
  form: Form,
  body: Record<string, unknown>,
  requireAll: boolean,
): CheckedAnswers {
  const errors = new FieldErrors();
  const answers = new Map<string, unknown>();
  for (const field of form.properties) {
    if (field.type.startsWith('nf-')) continue;
    const sent = Object.hasOwn(body, field.id);
    const value = sent ? body[field.id] : undefined;
    if (requireAll && field.required && !field.hidden) {
      if (unanswered(value)) {
        errors.add(field.id, `The ${field.name} field is required.`);
        continue;
      }
      if (field.type === 'checkbox' && !ACCEPTED.includes(value))
        errors.add(field.id, `The ${field.name} must be accepted.`);
      if (field.type === 'rating' && typeof value === 'number' && value < 1)
        errors.add(field.id, 'A rating must be selected');
    }
    if (!sent) continue;
    const checked = laravelAnswer(ctx, form, field, value, errors);
    if (checked.ok) answers.set(field.id, checked.value);
    else errors.add(field.id, checked.error);
  }
  // AnswerFormRequest.php:132-139 (ledger: update-submission-captcha-token-required). The rules are
  // implicit (they run when the key is absent); a token would be verified with the provider, which
  // the sandbox cannot reach, so no token passes.
  if (form.captchaProvider) {
    const key = form.captchaProvider === 'hcaptcha' ? 'h-captcha-response' : 'g-recaptcha-response';
    errors.add(
      key,
      unanswered(body[key]) ? 'Please complete the captcha.' : "Invalid CAPTCHA. Please prove you're not a bot.",
    );
  }
  // AnswerFormRequest.php:146-147.
  if (body.completion_time != null && !isIntegerLike(body.completion_time))
    errors.add('completion_time', 'The completion time must be an integer.');
  if (body.submission_id != null && typeof body.submission_id !== 'string')
    errors.add('submission_id', 'The submission id must be a valid text.');
  // AnswerFormRequest.php:148-149: `array:<the attribution parameters>` refuses any other key.
  const tracking = body.tracking_parameters;
  if (
    tracking != null &&
    (typeof tracking !== 'object' ||
      Array.isArray(tracking) ||
      Object.keys(tracking).some((k) => !ATTRIBUTION_PARAMETERS.includes(k)))
  ) {
    errors.add('tracking_parameters', 'The tracking parameters field must be an array.');
  }
  return errors.size > 0 ? { ok: false, error: errors } : { ok: true, value: answers };
}

export const ANSWER_FORM_REQUEST: AnswerRules = {
  create: (ctx, form, body, partial) => answerFormRequest(ctx, form, body, !partial),
  // Every required field, as for a new answer (ledger: update-submission-requires-every-required-field).
  update: (ctx, form, body) => answerFormRequest(ctx, form, body, true),
  // StoreFormSubmissionJob.php:249-253, 289-299: the stored answers become exactly the answers sent
  // (empty ones included), completion_time is the one sent or null, and the status is completed
  // (ledger: update-submission-replaces-all-answers).
  updated: (_current, answers, body) => ({
    answers: Object.fromEntries(answers),
    // An integer column: "74" is stored as 74.
    completionTime: isIntegerLike(body.completion_time) ? Number(body.completion_time) : null,
    status: 'completed',
  }),
};
