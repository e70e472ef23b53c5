import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// userId is a member's id, as listWorkspaceUsers gives it; the role is admin, user or readonly.
const changed = await forms.operations.updateWorkspaceUserRole({
  path: { workspaceId: 1, userId: 4 },
  body: { role: 'readonly' },
});
console.log(JSON.stringify(changed));
