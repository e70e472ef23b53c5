import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Try it on a form of your own: here, a copy of form 11 made for the purpose. Deleting a form
// deletes its integrations too; its submissions are no longer reachable.
const original = await forms.operations.getForm({ path: { form: 11 } });
const { form } = await forms.operations.createForm({
  body: {
    workspace_id: original.workspace_id,
    title: `Copy of ${original.title}`,
    visibility: 'draft',
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
    properties: original.properties,
  },
});
const deleted = await forms.operations.deleteForm({ path: { form: form.id } });
console.log(JSON.stringify(deleted));
