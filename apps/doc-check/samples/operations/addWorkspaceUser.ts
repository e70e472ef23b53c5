import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// An existing account is added with the role; anyone else is emailed an invitation valid seven
// days (returned as invite). The message says which. Needs an admin and a plan that invites.
const added = await forms.operations.addWorkspaceUser({
  path: { workspaceId: 1 },
  body: { email: 'jane@example.com', role: 'user' },
});
console.log(JSON.stringify(added));
