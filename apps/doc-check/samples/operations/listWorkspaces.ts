import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Every workspace of the token's user, in one array (not paged), with your role in pivot.role.
const workspaces = await forms.operations.listWorkspaces();
console.log(JSON.stringify(workspaces));
