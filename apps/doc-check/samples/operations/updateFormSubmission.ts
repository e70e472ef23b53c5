import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// The service replaces every answer of the submission with the ones sent (answers not sent are
// deleted, completion_time is reset): updateKeeping reads the current answers, merges the change
// and sends the complete set. Answers are keyed by field id.
const form = await forms.forms.get(11);
const field = (name: string) => form.properties.find((f) => f.name === name)!.id;
const [newest] = (await forms.submissions.list(11, { perPage: 1, status: 'completed' })).data;
const updated = await forms.submissions.updateKeeping({
  form: 11,
  submission: newest!.id,
  changes: { [field('Name')]: 'Jane Doe' },
});
console.log(JSON.stringify(updated));
