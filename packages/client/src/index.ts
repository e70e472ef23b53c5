// Public entry point of @forms-api/client.
export { createFormsClient, type FormsClient } from './client.js';
export {
  FormsApiError,
  isFormsApiError,
  type FormsApiErrorBody,
  type FormsApiErrorContext,
  type FormsApiErrorKind,
} from './errors.js';
export type { SubmissionFileRef } from './download.js';
export type { OperationInfo } from './operations.js';
export type { OperationMethod, OperationMethods, OperationRequest, OperationResult } from './operation-methods.js';
export {
  createRequestPacer,
  type PacingStats,
  type PacingWait,
  type RequestPacer,
  type RequestPacerOptions,
} from './pacing.js';
export type { CallOptions, Clock, FormsClientOptions, RetryEvent, RetryOptions } from './options.js';
export type {
  AnswersApi,
  FormChanges,
  FormListQuery,
  FormsApi,
  IntegrationRef,
  IntegrationsApi,
  IntegrationUpdate,
  PageOptions,
  SubmissionAnswers,
  SubmissionExport,
  SubmissionListQuery,
  SubmissionsApi,
  SubmissionUpdate,
  UpdateSubmissionOptions,
} from './resources.js';
export type { AnswerChanges, SubmissionChanges, UpdateKeepingOptions } from './update-keeping.js';
// The redactor is @forms-api/client/redact.
export { VERSION } from './version.js';
