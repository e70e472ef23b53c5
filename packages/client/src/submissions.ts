// @forms-api/client/submissions: one shape for a submission whether a webhook or the list brought
// it, and the form's fields it is joined with. The webhook inbox normalises with it too.
export {
  formFields,
  normaliseListedSubmission,
  normaliseWebhookSubmission,
  unknownFieldIds,
  type FormFields,
  type NormalisedAnswer,
  type NormalisedSubmission,
  type SubmissionId,
  type SubmissionOrigin,
  type SubmissionPublicId,
} from './submission.js';
