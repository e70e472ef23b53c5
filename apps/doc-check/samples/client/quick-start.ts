// #region create
import { createFormsClient, isFormsApiError } from '@forms-api/client';

const forms = createFormsClient({
  baseUrl: process.env.FORMS_API_BASE_URL ?? 'https://api.opnform.com',
  token: process.env.FORMS_API_TOKEN!, // a personal access token, without "Bearer "
});
const formId = 11; // a form of your workspace (the sandbox's seed has form 11)
// #endregion

// #region iterate
// Every completed submission that mentions "jane", 100 per request, one page in memory at a time.
for await (const submission of forms.submissions.iterate(formId, { search: 'jane', status: 'completed' })) {
  console.log(submission.id, submission.data.created_at);
}
// #endregion

// #region update
// Change one answer of the newest submission and keep every other one (needs the `forms-write`
// ability). The service's update replaces all answers: updateKeeping reads them, merges the change
// and sends the complete set. Answers are keyed by field id: look the field up by its name.
const form = await forms.forms.get(formId);
const nameField = form.properties.find((field) => field.name === 'Name')!;
const [newest] = (await forms.submissions.list(formId, { perPage: 1, status: 'completed' })).data;
const updated = await forms.submissions.updateKeeping({
  form: formId,
  submission: newest!.id,
  changes: { [nameField.id]: 'Jane Doe' },
});
console.log(updated.message);
// #endregion

// #region errors
// Branch on what went wrong.
try {
  await forms.forms.list(987654);
} catch (err) {
  if (isFormsApiError(err) && err.kind === 'not_found') {
    // err.message: "GET /open/workspaces/{workspaceId}/forms (listWorkspaceForms) failed with 404
    // …: workspace 987654 does not exist or is not visible to the token's user: check the id."
    console.error(err.message);
  } else throw err;
}
// #endregion
