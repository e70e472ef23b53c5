import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

const integrationId = Number(process.env.FORMS_INTEGRATION_ID);
// The body replaces the integration: send every field you want to keep.
const saved = await forms.integrations.update(11, integrationId, {
  integration_id: 'webhook',
  status: 'inactive',
  data: { webhook_url: 'https://example.com/webhooks/forms', webhook_secret: process.env.FORMS_WEBHOOK_SECRET! },
});
console.log(JSON.stringify(saved));
