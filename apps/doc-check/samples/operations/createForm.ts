import { randomUUID } from 'node:crypto';
import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// A whole form: every key below is required. Field ids are yours to choose (answers and
// submissions are keyed by them), so keep them stable across updates.
const created = await forms.operations.createForm({
  body: {
    workspace_id: 1,
    title: 'Contact Form',
    visibility: 'public',
    language: 'en',
    theme: 'default',
    presentation_style: 'classic',
    width: 'centered',
    size: 'md',
    border_radius: 'small',
    dark_mode: 'auto',
    color: '#3B82F6',
    uppercase_labels: false,
    no_branding: false,
    transparent_background: false,
    properties: [
      { id: randomUUID(), name: 'Name', type: 'text', required: true },
      { id: randomUUID(), name: 'Email', type: 'email', required: true },
    ],
  },
});
console.log(JSON.stringify(created));
