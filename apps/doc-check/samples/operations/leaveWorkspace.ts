import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Takes the token's own user out of the workspace (workspaces-read is enough); its other calls
// on the workspace then answer 403. Tried here on a workspace made for the purpose.
const { workspace_id } = await forms.operations.createWorkspace({ body: { name: 'Short-lived' } });
const left = await forms.operations.leaveWorkspace({ path: { workspaceId: workspace_id! } });
console.log(JSON.stringify(left));
