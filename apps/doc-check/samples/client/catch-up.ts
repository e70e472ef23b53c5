// #region catch-up
import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });
// Stand-ins for your database: the ids of the submissions you stored, and when your outage began
// (or your last walk ran), in UTC, with a margin.
const stored = new Set<number>();
const since = '2024-01-01 00:00:00';

// Newest first. `created_at` is `YYYY-MM-DD HH:MM:SS` in UTC, so the strings compare as times.
for await (const submission of forms.submissions.iterate(11, { status: 'completed' })) {
  if (submission.data.created_at < since) break; // older than the outage: done
  if (stored.has(submission.id)) continue; // stored already (its webhook came)
  stored.add(submission.id); // store it as your webhook handler would, keyed by its id
}
// #endregion
console.log(`caught up: ${stored.size} submissions`);
