import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Answers are keyed by field id; send every required field of the form.
const form = await forms.forms.get(11);
const field = (name: string) => form.properties.find((f) => f.name === name)!.id;
const [newest] = (await forms.submissions.list(11, { perPage: 1, status: 'completed' })).data;
const updated = await forms.submissions.update(11, newest!.id, {
  [field('Name')]: 'Jane Doe',
  [field('Email')]: 'jane@example.com',
});
console.log(JSON.stringify(updated));
