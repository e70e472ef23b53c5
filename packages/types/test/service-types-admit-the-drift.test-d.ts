// Type-level tests, compiled by `tsc -p test` (pnpm test): for each ledger entry that changes a
// shape, the default types (what the service sends) admit the value the service sends, and the
// contract's types (`ContractTypes`) do not. Values are as the service's code produces them.
import { expectTypeOf } from 'expect-type';
import type {
  AnswerValue,
  ContractTypes,
  FormSummary,
  FormSummaryPage,
  IntegrationEvent,
  Submission,
  SubmissionCreatedPayload,
  UpdatedSubmission,
  WebhookEvent,
  operations,
  paths,
} from '../src/index.js';
// The values live beside the spec's observed-bundle test, which validates the same ones (types depends on spec).
import {
  deliveredEvent,
  formSummaryBase,
  listedSubmission,
  submissionUuid,
  timedOutEvent,
} from '../../../spec/test/fixtures/observed-values.js';

const summary = formSummaryBase;

// form-summary-tags-null: `tags: null`.
export const nullTags = { ...summary, tags: null, plan_tier: 'free' } as const;
expectTypeOf(nullTags).toExtend<FormSummary>();
expectTypeOf<null>().toExtend<FormSummary['tags']>();
expectTypeOf<null>().not.toExtend<ContractTypes.FormSummary['tags']>();
export function tagNames(form: FormSummary): string[] {
  // @ts-expect-error the service may send null tags: map them only after a null check
  form.tags.map((tag) => tag);
  return (form.tags ?? []).map((tag) => tag.toUpperCase());
}

// form-summary-plan-tier: no `is_pro`, a `plan_tier`.
export const withPlanTier = { ...summary, tags: ['a'], plan_tier: 'business' as const };
expectTypeOf(withPlanTier).toExtend<FormSummary>();
expectTypeOf(withPlanTier).not.toExtend<ContractTypes.FormSummary>();
expectTypeOf<FormSummary['plan_tier']>().toEqualTypeOf<
  'free' | 'pro' | 'business' | 'enterprise' | 'self_hosted' | undefined
>();
expectTypeOf<ContractTypes.FormSummary>().not.toHaveProperty('plan_tier');
expectTypeOf<FormSummary['is_pro']>().toEqualTypeOf<boolean | undefined>();
expectTypeOf<ContractTypes.FormSummary['is_pro']>().toEqualTypeOf<boolean>();

// form-list-meta-extended: `links` and the paginator's meta.
expectTypeOf<FormSummaryPage>().toHaveProperty('links');
expectTypeOf<NonNullable<FormSummaryPage['meta']['last_page']>>().toEqualTypeOf<number>();
expectTypeOf<ContractTypes.FormSummaryPage>().not.toHaveProperty('links');

// update-submission-response-shape: `{type, message, data: <submission as listed>}`.
export const updated = {
  type: 'success',
  message: 'Submission updated.',
  data: { ...listedSubmission, submission_id: submissionUuid },
} as const;
expectTypeOf(updated).toExtend<UpdatedSubmission>();
expectTypeOf(updated).not.toExtend<ContractTypes.UpdatedSubmission>();
expectTypeOf<UpdatedSubmission['data']['submission_id']>().toEqualTypeOf<string>();
expectTypeOf<ContractTypes.UpdatedSubmission['data']['submission_id']>().toEqualTypeOf<number>();
expectTypeOf<UpdatedSubmission['data']>().not.toHaveProperty('submitted_at');
expectTypeOf<ContractTypes.UpdatedSubmission['data']>().toHaveProperty('submitted_at');
expectTypeOf<UpdatedSubmission['data']['id']>().toEqualTypeOf<number>();

// events-shape: `{date, status: 'Success' | 'Error', data}`.
export const delivery = deliveredEvent;
export const receiverError = {
  date: '2026-08-22 10:32',
  status: 'Error',
  data: { message: 'HTTP request returned status code 500', response: { error: 'down' }, status: 500 },
} as const;
export const timeout = timedOutEvent;
expectTypeOf(delivery).toExtend<IntegrationEvent>();
expectTypeOf(receiverError).toExtend<IntegrationEvent>();
expectTypeOf(timeout).toExtend<IntegrationEvent>();
expectTypeOf(delivery).not.toExtend<ContractTypes.WebhookEvent>();
expectTypeOf<IntegrationEvent>().toEqualTypeOf<WebhookEvent>();
export const delivered = (event: IntegrationEvent): boolean => event.status === 'Success';
// @ts-expect-error TS2367: the contract's statuses are success | failed | timeout, never 'Success'
export const deliveredByContract = (event: ContractTypes.WebhookEvent): boolean => event.status === 'Success';

// submission-file-answer-object: a file answer keyed by position.
export const fileAnswerObject = {
  '1': { file_url: 'https://forms.example.com/f?expires=1&signature=ab', file_name: 'cv.pdf' },
} as const;
expectTypeOf(fileAnswerObject).toExtend<AnswerValue>();

// webhook-submission-empty-array: `submission: []` when no field has a value.
export const emptyPayload = { form_id: 12, form_title: 'Contact', submission_id: 7, submission: [] as never[] };
expectTypeOf(emptyPayload).toExtend<SubmissionCreatedPayload>();
expectTypeOf(emptyPayload).not.toExtend<ContractTypes.SubmissionCreatedPayload>();
export function answersByName(payload: SubmissionCreatedPayload): Record<string, unknown> {
  // @ts-expect-error the service may send an empty list: check before reading it as an object
  void payload.submission['Name'];
  return Array.isArray(payload.submission) ? {} : payload.submission;
}

// submission-resource-extra-keys: `submission_id` (a UUID) at the top and in `data`, `meta`, `data.ip_address`.
expectTypeOf<Submission['submission_id']>().toEqualTypeOf<string | undefined>();
expectTypeOf<ContractTypes.Submission>().not.toHaveProperty('submission_id');
expectTypeOf<Submission['data']['submission_id']>().toExtend<string | undefined>();
expectTypeOf<NonNullable<Submission['meta']>['attribution']>().toExtend<Record<string, string> | undefined>();
expectTypeOf<Submission['data']['ip_address']>().toExtend<string | null | undefined>();

// The raw surface is the service's too: openapi-fetch callers get what the service sends.
type ListedForm = NonNullable<
  paths['/open/workspaces/{workspaceId}/forms']['get']['responses'][200]['content']['application/json']['data']
>[number];
expectTypeOf<ListedForm>().toEqualTypeOf<FormSummary>();
expectTypeOf<
  operations['updateFormSubmission']['responses'][200]['content']['application/json']
>().toEqualTypeOf<UpdatedSubmission>();
expectTypeOf<
  ContractTypes.operations['updateFormSubmission']['responses'][200]['content']['application/json']
>().toEqualTypeOf<ContractTypes.UpdatedSubmission>();
