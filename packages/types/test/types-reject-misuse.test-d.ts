// Type-level tests, compiled by `tsc` (pnpm test): each @ts-expect-error marks a misuse that
// must not compile. If the generated types ever accept one, tsc reports the unused directive.
import type {
  FormSummary,
  ListSubmissionsQuery,
  SubmissionCreatedPayload,
  Submission,
  WebhookEvent,
  paths,
  operations,
  WebhookIntegrationInput,
  ContractTypes,
} from '../src/index.js';

type ListSubmissions = paths['/open/forms/{id}/submissions']['get'];
type UpdateSubmission = operations['updateFormSubmission'];

// Valid uses compile.
export const query: ListSubmissionsQuery = { page: 2, per_page: 50, search: 'jane', status: 'completed' };
export const pathParams: ListSubmissions['parameters']['path'] = { id: 42 };
export const updatePath: UpdateSubmission['parameters']['path'] = { id: 42, submission_id: 7 };
export const input: WebhookIntegrationInput = {
  integration_id: 'webhook',
  status: 'active',
  data: { webhook_url: 'https://example.com/hook' },
};

// A wrong query parameter name.
// @ts-expect-error perPage is not a parameter (the API calls it per_page)
export const wrongName: ListSubmissionsQuery = { perPage: 50 };

// An out-of-enum status.
// @ts-expect-error 'pending' is not one of completed | partial | all
export const wrongStatus: ListSubmissionsQuery = { status: 'pending' };

// A missing path parameter.
// @ts-expect-error submission_id is required
export const missingPath: UpdateSubmission['parameters']['path'] = { id: 42 };

// A wrong path parameter type.
// @ts-expect-error the form id is a number
export const wrongPathType: ListSubmissions['parameters']['path'] = { id: 'abc' };

// Reading fields the schemas do not have.
export function readFields(
  form: FormSummary,
  submission: Submission,
  event: WebhookEvent,
  payload: SubmissionCreatedPayload,
) {
  // @ts-expect-error submissions have no top-level status (it lives in data.status)
  submission.status;
  // @ts-expect-error the events list names its result `status`, not `result`
  event.result;
  // @ts-expect-error the webhook payload has no created_at
  payload.created_at;
  return [form.is_pro, submission.data.status, event.status, payload.form_id] as const;
}

// The contract's types keep the contract's names (ledger: form-summary-plan-tier, events-shape).
export function readContractFields(form: ContractTypes.FormSummary, event: ContractTypes.WebhookEvent) {
  // @ts-expect-error plan_tier is observed on the live service but not in the contract (drift)
  form.plan_tier;
  // @ts-expect-error the contract's events carry no date (the service's do)
  event.date;
  return [form.is_pro, event.response_code] as const;
}

// An integration with an unknown status or kind.
export const badStatus: WebhookIntegrationInput = {
  integration_id: 'webhook',
  // @ts-expect-error status is active | inactive
  status: 'paused',
  data: { webhook_url: 'https://example.com' },
};
export const badKind: WebhookIntegrationInput = {
  // @ts-expect-error only webhook integrations are managed by this API
  integration_id: 'slack',
  status: 'active',
  data: { webhook_url: 'https://example.com' },
};

// The generated operations table names the same HTTP operations as the generated types (the
// webhook's operation is in `operations` but is not an HTTP operation of the API).
import type { Ability, OperationSpec } from '../src/index.js';
import { OPERATIONS } from '../src/index.js';
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const sameOperations: Same<
  keyof typeof OPERATIONS,
  Exclude<keyof operations, 'submissionCreatedWebhook'>
> = true;
export const abilityUnion: Same<
  Ability,
  'forms-read' | 'forms-write' | 'manage-integrations' | 'workspaces-read' | 'workspaces-write'
> = true;
export const listForms: OperationSpec = OPERATIONS.listWorkspaceForms;
// @ts-expect-error an ability the spec does not name
export const unknownAbility: Ability = 'forms-delete';
