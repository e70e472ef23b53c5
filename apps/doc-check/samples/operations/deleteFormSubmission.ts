import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Deleted for good, with its files, and no webhook is sent. Tried here on a submission of your
// own: answer the form, then delete its newest completed submission.
const form = await forms.forms.get(11);
const field = (name: string) => form.properties.find((f) => f.name === name)!.id;
await forms.answers.submit(form.slug, { [field('Name')]: 'Test entry', [field('Email')]: 'test@example.com' });
const [newest] = (await forms.submissions.list(11, { perPage: 1, status: 'completed' })).data;
const deleted = await forms.operations.deleteFormSubmission({ path: { id: 11, submission_id: newest!.id } });
console.log(JSON.stringify(deleted));
