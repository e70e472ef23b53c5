import { createFormsClient } from '@forms-api/client';

// The public answer endpoint needs no token; the client sends none to it.
const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

const form = await forms.forms.get('contact-us-a1b2c3');
const field = (name: string) => form.properties.find((f) => f.name === name)!.id;
const accepted = await forms.answers.submit('contact-us-a1b2c3', {
  [field('Name')]: 'Jane Doe',
  [field('Email')]: 'jane@example.com',
  completion_time: 42,
});
console.log(JSON.stringify(accepted));
