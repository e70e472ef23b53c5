import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Every member, with their role in pivot.role; people invited without an account are
// listWorkspaceInvites'.
const members = await forms.operations.listWorkspaceUsers({ path: { workspaceId: 1 } });
console.log(JSON.stringify(members));
