import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Try it on a member you added: add an existing user, find their id among the members, remove
// them. A user left without any workspace is given a new one.
await forms.operations.addWorkspaceUser({
  path: { workspaceId: 1 },
  body: { email: 'bob@example.com', role: 'user' },
});
const members = await forms.operations.listWorkspaceUsers({ path: { workspaceId: 1 } });
const bob = members.find((member) => member.email === 'bob@example.com')!;
const removed = await forms.operations.removeWorkspaceUser({ path: { workspaceId: 1, userId: bob.id } });
console.log(JSON.stringify(removed));
