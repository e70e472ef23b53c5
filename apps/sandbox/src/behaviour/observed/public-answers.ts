// The public answer endpoint as the service's PublicFormController and StoreFormSubmissionJob run
// it: partial submissions only where the form and the plan allow them, resuming a partial or
// editing a submission by its public id, and what is kept beside the answers.
import { HttpError } from '../../http.js';
import type { Form, Plan, Submission } from '../../model.js';
import type { PublicAnswerRules } from '../../rules.js';
import { ATTRIBUTION_PARAMETERS } from './answers.js';

/** Laravel's `$request->boolean()`: true, 1, "1", "true", "on", "yes". */
const LARAVEL_TRUE: readonly unknown[] = [true, 1, '1', 'true', 'on', 'yes'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Pro features the service's plans gate (partial_submissions, editable_submissions, enable_ip_tracking). */
const hasFeature = (plan: Plan) => plan === 'pro';
const canPartial = (form: Form, plan: Plan) => Boolean(form.partialSubmissions) && hasFeature(plan);
const canEdit = (form: Form, plan: Plan) => Boolean(form.editableSubmissions) && hasFeature(plan);

function attribution(parameters: unknown): Record<string, string> {
  if (!parameters || typeof parameters !== 'object' || Array.isArray(parameters)) return {};
  const kept: Record<string, string> = {};
  // SubmissionAttribution.php:31-54: each a non-blank string of at most 2048 characters.
  for (const name of ATTRIBUTION_PARAMETERS) {
    const value = (parameters as Record<string, unknown>)[name];
    if (typeof value === 'string' && value.trim() !== '' && [...value].length <= 2048) kept[name] = value;
  }
  return kept;
}

export const PUBLIC_FORM_CONTROLLER: PublicAnswerRules = {
  // AnswerFormRequest.php:51-57, PublicFormController.php:146-148: a partial only with the form's
  // flag and the plan's feature; otherwise the answer is a full, validated, completed submission.
  partial: (form, plan, body) => LARAVEL_TRUE.includes(body.is_partial) && canPartial(form, plan),
  // PublicFormController.php:114-126.
  refusesEmptyPartial: true,
  // PublicFormController.php:203-254: submission_hash or submission_id, when the form allows edits
  // or partials; not a UUID or unknown: 404; a completed one on a form that only allows partials
  // is ignored (a new submission).
  resumes(store, form, plan, body) {
    const identifier = body.submission_hash ?? body.submission_id;
    if (identifier === undefined || identifier === null || identifier === '' || identifier === false) return undefined;
    if (!canEdit(form, plan) && !canPartial(form, plan)) return undefined;
    const found =
      typeof identifier === 'string' && UUID.test(identifier)
        ? store.submissionsOf(form.id).find((s) => s.publicId === identifier)
        : undefined;
    if (!found) throw new HttpError(404, { message: 'Submission not found' });
    return canEdit(form, plan) || found.status === 'partial' ? found : undefined;
  },
  // StoreFormSubmissionJob.php:259-274: attribution on a new submission only; the address when the
  // form and the plan track it.
  meta(form, plan, body, clientAddress, isNew, current) {
    const meta: Submission['meta'] = { ...current };
    const kept = attribution(body.tracking_parameters);
    if (isNew && Object.keys(kept).length > 0) meta.attribution = kept;
    if (form.ipTracking && hasFeature(plan) && clientAddress) meta.ip_address = clientAddress;
    return Object.keys(meta).length > 0 ? meta : undefined;
  },
  // PublicFormController.php:143.
  reportsFirstSubmission: true,
};
