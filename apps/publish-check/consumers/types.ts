// A TypeScript user reads the friendly types (what the service sends); a wrong field must not compile.
import type { ContractTypes, FormSummary, ListSubmissionsQuery, SubmissionCreatedPayload } from '@forms-api/types';

export const query: ListSubmissionsQuery = { status: 'completed', per_page: 50 };
export function title(form: FormSummary, payload: SubmissionCreatedPayload): string {
  // @ts-expect-error the service sends `tags: null` for some forms: check before mapping
  void form.tags.map((tag) => tag);
  return `${form.title} [${(form.tags ?? []).join(', ')}] (${form.plan_tier ?? 'free'}) / ${payload.form_title}`;
}
export function contractTitle(form: ContractTypes.FormSummary): string {
  // @ts-expect-error the contract has no plan_tier on form summaries
  void form.plan_tier;
  return form.title;
}
