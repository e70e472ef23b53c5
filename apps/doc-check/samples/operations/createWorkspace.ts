import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// The token's user becomes its only member, as admin. Past the plan's workspace limit: 403.
const created = await forms.operations.createWorkspace({ body: { name: 'Design Team', emoji: '🎨' } });
console.log(JSON.stringify(created));
