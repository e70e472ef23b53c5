import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Every invitation, pending, accepted or expired (an admin action: workspaces-write).
const invites = await forms.operations.listWorkspaceInvites({ path: { workspaceId: 1 } });
console.log(JSON.stringify(invites));
