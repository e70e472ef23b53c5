// #region types
import type { ListSubmissionsQuery, SubmissionCreatedPayload } from '@forms-api/types';
import { OPERATIONS } from '@forms-api/types';

const query: ListSubmissionsQuery = { status: 'completed', per_page: 50, search: 'jane' };
function onWebhook(payload: SubmissionCreatedPayload) {
  console.log(payload.form_title, payload.submission_id);
}
console.log(OPERATIONS.updateFormSubmission.abilities); // ['forms-write']
// #endregion
console.log(query, typeof onWebhook);
