// Friendly names for the generated types of the forms service open API. The generated modules
// (src/generated/) are the source; this file only re-exports and names their parts.
import type { components, operations, paths, webhooks } from './generated/openapi.js';
import { ABILITIES, OPERATIONS } from './generated/operations.js';

export type { components, operations, paths, webhooks };
export { ABILITIES, OPERATIONS };

type Schemas = components['schemas'];

/** A form as listed in a workspace (without `properties`). */
export type FormSummary = Schemas['FormSummary'];
/** A full form, with its fields and blocks. */
export type Form = Schemas['Form'];
/** One field or layout block of a form. */
export type FormField = Schemas['FormField'];
export type FormVisibility = Schemas['FormVisibility'];
/** A submission of a form, as listed. */
export type Submission = Schemas['Submission'];
/** The answers of a submission (keyed by field id) plus `status`, `created_at` and `id`. */
export type SubmissionData = Schemas['SubmissionData'];
export type SubmissionStatus = Schemas['SubmissionStatus'];
/** The answer to one field. */
export type AnswerValue = Schemas['AnswerValue'];
/** A stored file of a `files` or `signature` answer, with a signed URL valid 10 minutes. */
export type FileEntry = Schemas['FileEntry'];
/** The body of an update: new answers keyed by field id, plus `completion_time`. */
export type SubmissionUpdate = Schemas['SubmissionUpdate'];
/** The submission after an update. */
export type UpdatedSubmission = Schemas['UpdatedSubmission'];
/** Answers posted to the public answer endpoint. */
export type AnswerRequest = Schemas['AnswerRequest'];
export type AnswerAccepted = Schemas['AnswerAccepted'];
/** An integration of a form (webhooks and other kinds). */
export type WebhookIntegration = Schemas['WebhookIntegration'];
/** The body that creates or replaces a webhook integration. */
export type WebhookIntegrationInput = Schemas['WebhookIntegrationInput'];
export type WebhookIntegrationData = Schemas['WebhookIntegrationData'];
export type WebhookHeaders = Schemas['WebhookHeaders'];
export type IntegrationStatus = Schemas['IntegrationStatus'];
export type IntegrationSaved = Schemas['IntegrationSaved'];
/** One dispatch of a webhook integration. */
export type WebhookEvent = Schemas['WebhookEvent'];
/** The body of the `submission.created` webhook request. */
export type SubmissionCreatedPayload = Schemas['SubmissionCreatedPayload'];
/** One page of a workspace's forms. */
export type FormSummaryPage = Schemas['FormSummaryPage'];
/** One page of a form's submissions. */
export type SubmissionPage = Schemas['SubmissionPage'];
export type PaginationLinks = Schemas['PaginationLinks'];
export type PaginationMeta = Schemas['PaginationMeta'];
/** The shared error body (`message`, sometimes `type: "error"`). */
export type ApiErrorBody = Schemas['Error'];
/** The body of a 422: `message` plus `errors` keyed by input. */
export type ValidationErrorBody = Schemas['ValidationError'];
export type SuccessMessage = Schemas['SuccessMessage'];

/** The operationIds of the open API. */
export type OperationId = keyof operations & keyof typeof OPERATIONS;
/** One row of the operations table generated from the spec. */
export type OperationSpec = (typeof OPERATIONS)[OperationId];
/** The HTTP methods the open API uses. */
export type OperationMethod = OperationSpec['method'];
/** Query parameters of the submission list. */
export type ListSubmissionsQuery = NonNullable<operations['listFormSubmissions']['parameters']['query']>;
/** Query parameters of the workspace form list. */
export type ListFormsQuery = NonNullable<operations['listWorkspaceForms']['parameters']['query']>;
/** Abilities a personal access token can carry (the scopes of the operations' security requirements). */
export type Ability = (typeof ABILITIES)[number];

/** The operation with this id (undefined for an id the spec does not have). */
export function operationById(operationId: string): OperationSpec | undefined {
  return Object.hasOwn(OPERATIONS, operationId) ? OPERATIONS[operationId as OperationId] : undefined;
}
