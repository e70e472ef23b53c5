// @forms-api/client/submissions: one shape for a submission whether a webhook or the list brought
// it, and the form's fields it is joined with (the webhook inbox normalises with it too); and the
// export of a form's submissions in that shape, as NDJSON or CSV.
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
export {
  exportSubmissions,
  type ExportClient,
  type ExportProgress,
  type ExportSubmissionsOptions,
  type ExportSummary,
} from './export.js';
export { csvCell } from './csv.js';
// The shift of a page-number list under a walk, for walkers whose steps are queued jobs (the inbox's reconciler).
export { firstPageMovedOnto } from './pagination.js';
