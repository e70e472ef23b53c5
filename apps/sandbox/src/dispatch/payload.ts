// Builds the submission.created body and serialises it as the service does: compact JSON with
// `/` and non-ASCII unescaped, but U+2028 and U+2029 escaped (PHP json_encode), so the bytes a
// receiver hashes are realistic.
import { storedFileNames } from '../files.js';
import type { Form, Submission } from '../model.js';

export function formatAnswer(type: string, value: unknown, fileUrl: (name: string) => string): unknown {
  if (type === 'checkbox') return value ? 'Yes' : 'No';
  if (type === 'files' || type === 'signature') return storedFileNames(value).map((name) => ({ file_url: fileUrl(name), file_name: name }));
  return value;
}

export function submissionCreatedPayload(form: Form, submission: Submission, fileUrl: (name: string) => string): Record<string, unknown> {
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
    submission: Object.keys(byName).length > 0 ? byName : [],
    data: Object.keys(byId).length > 0 ? byId : [],
    message: 'Please do not use the `submission` field. It is deprecated and will be removed in the future.',
    submission_id: submission.id,
  };
}

export function serialiseLikeTheService(payload: unknown): string {
  return JSON.stringify(payload).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
