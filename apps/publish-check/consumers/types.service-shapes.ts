// A TypeScript user's code compiles only when it handles what the service sends (issue 19): tags
// that may be null, the public UUID string an update answers with, and events as `{date, status, data}`.
import type { FormSummary, UpdatedSubmission, WebhookEvent } from '@forms-api/types';

export function tagsOf(form: FormSummary): string[] {
  // @ts-expect-error the service sends `tags: null` for some forms: check before mapping
  void form.tags.map((tag) => tag);
  return form.tags ?? [];
}

export function publicIdOf(updated: UpdatedSubmission): string {
  // @ts-expect-error the service answers an update with the public UUID, a string
  const asNumber: number = updated.data.submission_id;
  void asNumber;
  // @ts-expect-error the service's update answer has no submitted_at
  void updated.data.submitted_at;
  return updated.data.submission_id;
}

export function successes(events: WebhookEvent[]): WebhookEvent[] {
  return events.filter((event) => event.status === 'Success');
}
