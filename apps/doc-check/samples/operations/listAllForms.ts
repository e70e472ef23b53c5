import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Deprecated: every form of every workspace, whole (with properties), in one array that is
// neither paged nor bounded. Prefer listWorkspaceForms (forms.forms.list), which pages.
const all = await forms.operations.listAllForms();
console.log(JSON.stringify(all));
