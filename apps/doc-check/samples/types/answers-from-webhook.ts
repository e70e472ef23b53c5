// #region answers-from-webhook
import type { SubmissionCreatedPayload, SubmissionData } from '@forms-api/types';

/** A webhook's answers keyed by field id, as the list gives them; `submission_id` is the list's `id`. */
function answersFromWebhook(payload: SubmissionCreatedPayload): Record<string, SubmissionData[string]> {
  // `data` is `[]`, not an object, when no field has a value.
  const data = Array.isArray(payload.data) ? {} : (payload.data ?? {});
  return Object.fromEntries(Object.entries(data).map(([fieldId, answer]) => [fieldId, answer.value]));
}
// #endregion

const payload: SubmissionCreatedPayload = {
  form_id: 123,
  form_title: 'Contact Form',
  submission_id: 456,
  submission: { Name: 'Jane Doé' },
  data: { '3700d380-197b-47b9-a008-3acc31bbd506': { value: 'Jane Doé', name: 'Name', type: 'text' } },
};
console.log(payload.submission_id, answersFromWebhook(payload));
