import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Both are replaced: an update without emoji removes the workspace's emoji.
const updated = await forms.operations.updateWorkspace({
  path: { workspaceId: 1 },
  body: { name: 'Acme Marketing', emoji: '🚀' },
});
console.log(JSON.stringify(updated));
