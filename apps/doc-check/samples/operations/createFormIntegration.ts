import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

const saved = await forms.integrations.create(11, {
  integration_id: 'webhook',
  status: 'active',
  data: {
    webhook_url: process.env.RECEIVER_URL ?? 'https://example.com/webhooks/forms',
    webhook_secret: process.env.FORMS_WEBHOOK_SECRET!, // at least 12 characters
    webhook_headers: { 'X-API-Key': 'receiver-key' },
  },
});
console.log(JSON.stringify(saved));
