import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// A pending invitation is emailed again with its expiry unchanged: an expired one sends a dead
// link (cancel it and add the person again). Tried here on an invitation just sent.
const { invite } = await forms.operations.addWorkspaceUser({
  path: { workspaceId: 1 },
  body: { email: 'lee@example.com', role: 'user' },
});
const resent = await forms.operations.resendWorkspaceInvite({ path: { workspaceId: 1, inviteId: invite!.id } });
console.log(JSON.stringify(resent));
