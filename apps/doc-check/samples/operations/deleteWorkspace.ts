import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Try it on a workspace of your own: an admin may delete a workspace, never their last one.
const { workspace_id } = await forms.operations.createWorkspace({ body: { name: 'Scratch' } });
const deleted = await forms.operations.deleteWorkspace({ path: { workspaceId: workspace_id! } });
console.log(JSON.stringify(deleted));
