// Type-level tests of the statuses and inputs the spec states after the contract review: the two
// list operations promise no 422 and no 402 (the published contract shows neither), the download
// documents the observed 302 to storage, and inputs the service accepts are not narrowed by bounds
// it does not have. Compiled by `tsc` (pnpm test); each @ts-expect-error must stay an error.
import type { OperationSpec, WebhookHeaders, SubmissionUpdate, operations } from '../src/index.js';
import { OPERATIONS } from '../src/index.js';

type Statuses<Id extends keyof typeof OPERATIONS> = (typeof OPERATIONS)[Id]['statuses'][number];
type Has<Union, Member> = [Member] extends [Union] ? true : false;

// The operations table carries the statuses the spec documents, generated from it.
export const listFormsHas404: Has<Statuses<'listWorkspaceForms'>, 404> = true;
export const listFormsHasNo422: Has<Statuses<'listWorkspaceForms'>, 422> = false;
export const listSubmissionsHasNo422: Has<Statuses<'listFormSubmissions'>, 422> = false;
export const listSubmissionsHasNo402: Has<Statuses<'listFormSubmissions'>, 402> = false;
export const downloadHas302: Has<Statuses<'downloadSubmissionFile'>, 302> = true;
export const downloadHas200: Has<Statuses<'downloadSubmissionFile'>, 200> = true;
// Bodies are still validated where the service validates them.
export const updateSubmissionHas422: Has<Statuses<'updateFormSubmission'>, 422> = true;
export const createIntegrationHas422: Has<Statuses<'createFormIntegration'>, 422> = true;

// The generated response types agree with the table.
type ListSubmissionsResponses = operations['listFormSubmissions']['responses'];
// @ts-expect-error the submission list documents no 422: the service validates no query parameter
export type NoValidationFailure = ListSubmissionsResponses[422];
// @ts-expect-error the submission list documents no 402: the contract names no status for the Pro filter
export type NoPlanRefusal = ListSubmissionsResponses[402];
// @ts-expect-error the workspace form list documents no 422 either
export type NoFormsValidationFailure = operations['listWorkspaceForms']['responses'][422];

// The redirect to storage names its Location.
export const redirectLocation: operations['downloadSubmissionFile']['responses'][302]['headers']['Location'] =
  'https://bucket.s3.example.com/f?X-Amz-Signature=ab';

// The contract offers an authorization header as a custom webhook header; the types allow it.
export const authorizationHeader: WebhookHeaders = { Authorization: 'Bearer receiver-token' };

// completion_time may be cleared with null (observed), and is not bounded.
export const clearCompletionTime: SubmissionUpdate = { completion_time: null };
export const longCompletionTime: SubmissionUpdate = { completion_time: 40_000_000 };

// A row of the table is an OperationSpec.
export const listSubmissions: OperationSpec = OPERATIONS.listFormSubmissions;
