// Answers as the service's AnswerFormRequest validates them, for a new answer and an update alike
// (FormSubmissionController.php:82 takes the same request class as the public answer), and what an
// update makes of a submission (StoreFormSubmissionJob): the answers sent replace all others.
import { checkAnswer, type AnswerRules, type CheckedAnswers } from '../../answers.js';
import { FieldErrors } from '../../http.js';
import type { Form } from '../../model.js';
import { err, ok } from '../../result.js';

/** What Laravel's `accepted` rule takes for a required checkbox. */
const ACCEPTED: readonly unknown[] = ['yes', 'on', '1', 1, true, 'true'];
/** Laravel's `required`: null, an empty (trimmed) string and an empty list are no answer. */
const unanswered = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/**
 * AnswerFormRequest.php:59-151: per field of the form, in its order, `required` when the field is
 * required and not hidden (a checkbox must then be accepted, a rating at least 1), then its type;
 * then the captcha of a captcha form; then the meta keys. Keys that are not fields are dropped.
 */
function answerFormRequest(form: Form, body: Record<string, unknown>, requireAll: boolean): CheckedAnswers {
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
      if (field.type === 'checkbox' && !ACCEPTED.includes(value)) errors.add(field.id, `The ${field.name} must be accepted.`);
      if (field.type === 'rating' && typeof value === 'number' && value < 1) errors.add(field.id, 'A rating must be selected');
    }
    if (!sent) continue;
    const checked = checkAnswer(field, value);
    if (checked.ok) answers.set(field.id, checked.value);
    else errors.add(field.id, checked.error);
  }
  // AnswerFormRequest.php:132-139 (ledger: update-submission-captcha-token-required). The rules are
  // implicit (they run when the key is absent); a token would be verified with the provider, which
  // the sandbox cannot reach, so no token passes.
  if (form.captchaProvider) {
    const key = form.captchaProvider === 'hcaptcha' ? 'h-captcha-response' : 'g-recaptcha-response';
    errors.add(key, unanswered(body[key]) ? 'Please complete the captcha.' : "Invalid CAPTCHA. Please prove you're not a bot.");
  }
  // AnswerFormRequest.php:146-147.
  if (body.completion_time != null && !Number.isInteger(body.completion_time)) errors.add('completion_time', 'The completion time must be an integer.');
  if (body.submission_id != null && typeof body.submission_id !== 'string') errors.add('submission_id', 'The submission id must be a valid text.');
  return errors.size > 0 ? err(errors) : ok(answers);
}

export const ANSWER_FORM_REQUEST: AnswerRules = {
  create: (_ctx, form, body, partial) => answerFormRequest(form, body, !partial),
  // Every required field, as for a new answer (ledger: update-submission-requires-every-required-field).
  update: (_ctx, form, body) => answerFormRequest(form, body, true),
  // StoreFormSubmissionJob.php:249-253, 289-299: the stored answers become exactly the answers sent
  // (empty ones included), completion_time is the one sent or null, and the status is completed
  // (ledger: update-submission-replaces-all-answers).
  updated: (_current, answers, body) => ({
    answers: Object.fromEntries(answers),
    completionTime: Number.isInteger(body.completion_time) ? (body.completion_time as number) : null,
    status: 'completed',
  }),
};
