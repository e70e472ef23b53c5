import { randomUUID } from 'node:crypto';
import type { FormInput } from '@forms-api/types';
import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// updateForm replaces the whole form: send every required key, and every field to keep (fields
// left out are removed). Keep the form you send, change it and send it all back.
const contactForm: FormInput = {
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
};
const { form } = await forms.operations.createForm({ body: { ...contactForm, workspace_id: 1 } });
const updated = await forms.operations.updateForm({
  path: { form: form.id },
  body: { ...contactForm, title: 'Contact us', visibility: 'draft' },
});
console.log(JSON.stringify(updated));
