// Builds the submission.created body and serialises it as the service does: compact JSON with
// `/` and non-ASCII unescaped, but U+2028 and U+2029 escaped (PHP json_encode), so the bytes a
// receiver hashes are realistic.
import { storedFileNames } from '../files.js';
import type { Form, Submission } from '../model.js';

export function formatAnswer(type: string, value: unknown, fileUrl: (name: string) => string): unknown {
  if (type === 'checkbox') return value ? 'Yes' : 'No';
  if (type === 'files' || type === 'signature')
    return storedFileNames(value).map((name) => ({ file_url: fileUrl(name), file_name: name }));
  return value;
}

/** What the service adds to a payload when it applies (AbstractIntegrationHandler.php:172-179). */
export interface PayloadExtras {
  /** The respondent's edit link, for an editable form on a plan with the feature. */
  editLink?: string;
  /** Campaign attribution kept with the submission. */
  attribution?: Record<string, string>;
}

export function submissionCreatedPayload(
  form: Form,
  submission: Submission,
  fileUrl: (name: string) => string,
  extras: PayloadExtras = {},
  emptyAnswersAs: 'object' | 'list' = 'object',
): Record<string, unknown> {
  const empty = () => (emptyAnswersAs === 'list' ? [] : {});
  const byName: Record<string, unknown> = {};
  const byId: Record<string, unknown> = {};
  for (const field of form.properties) {
    const value = submission.answers[field.id];
    if (value === undefined || value === null) continue;
    const formatted = formatAnswer(field.type, value, fileUrl);
    byName[field.name] = formatted;
    byId[field.id] = { value: formatted, name: field.name, type: field.type };
  }
  return {
    form_id: form.id,
    form_title: form.title,
    form_slug: form.slug,
    submission: Object.keys(byName).length > 0 ? byName : empty(),
    data: Object.keys(byId).length > 0 ? byId : empty(),
    message: 'Please do not use the `submission` field. It is deprecated and will be removed in the future.',
    submission_id: submission.id,
    ...(extras.editLink ? { edit_link: extras.editLink } : {}),
    ...(extras.attribution && Object.keys(extras.attribution).length > 0
      ? { meta: { attribution: extras.attribution } }
      : {}),
  };
}

export function serialiseLikeTheService(payload: unknown): string {
  return JSON.stringify(payload)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
