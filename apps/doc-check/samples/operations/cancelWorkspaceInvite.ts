import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Withdraws a pending invitation for good (an accepted one answers 400: remove the member
// instead). Tried here on an invitation just sent.
const { invite } = await forms.operations.addWorkspaceUser({
  path: { workspaceId: 1 },
  body: { email: 'kim@example.com', role: 'user' },
});
const cancelled = await forms.operations.cancelWorkspaceInvite({ path: { workspaceId: 1, inviteId: invite!.id } });
console.log(JSON.stringify(cancelled));
