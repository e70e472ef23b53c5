import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Columns are keyed by field id (or created_at, status, meta.attribution.<parameter>), each true
// to include it. Up to 1,000 submissions the answer is the CSV; beyond, it is a background job
// that a token cannot follow, so export those in batches of at most 1,000 submissionIds.
const form = await forms.forms.get(11);
const field = (name: string) => form.properties.find((f) => f.name === name)!.id;
const response = await forms.operations.exportFormSubmissions({
  path: { id: 11 },
  body: { columns: { [field('Name')]: true, [field('Email')]: true, created_at: true } },
});
if (!response.headers.get('content-type')?.startsWith('text/csv'))
  throw new Error('more than 1,000 submissions: export them in batches with submissionIds');
console.log(await response.text());
