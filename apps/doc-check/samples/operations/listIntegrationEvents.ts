import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

const events = await forms.integrations.events({ form: 11, integration: Number(process.env.FORMS_INTEGRATION_ID) });
console.log(JSON.stringify(events));
