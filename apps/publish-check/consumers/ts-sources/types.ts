// A TypeScript user reads the friendly types; a wrong field must not compile.
import type { FormSummary, ListSubmissionsQuery, SubmissionCreatedPayload } from '@forms-api/types';

export const query: ListSubmissionsQuery = { status: 'completed', per_page: 50 };
export function title(form: FormSummary, payload: SubmissionCreatedPayload): string {
  // @ts-expect-error the contract has no plan_tier on form summaries
  void form.plan_tier;
  return `${form.title} / ${payload.form_title}`;
}
