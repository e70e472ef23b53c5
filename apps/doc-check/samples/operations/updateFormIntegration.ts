import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

const integration = Number(process.env.FORMS_INTEGRATION_ID);
// The input replaces the integration: send every field you want to keep.
const saved = await forms.integrations.update({
  form: 11,
  integration,
  input: {
    integration_id: 'webhook',
    status: 'inactive',
    data: { webhook_url: 'https://example.com/webhooks/forms', webhook_secret: process.env.FORMS_WEBHOOK_SECRET! },
  },
});
console.log(JSON.stringify(saved));
