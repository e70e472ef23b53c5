import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// iterate() paginates for you: it requests page 1, 2, 3… with the same filters, 100 per request, and
// yields each submission, so one page at a time is in memory. pages() yields whole pages instead.
for await (const submission of forms.submissions.iterate(11, { status: 'completed', search: 'jane' })) {
  console.log(submission.id, submission.data.created_at);
}
