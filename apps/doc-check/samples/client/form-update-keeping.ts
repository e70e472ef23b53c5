import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });
// #region update-keeping
// A form of its own to change (the token needs `forms-write`), deleted at the end. A creation
// takes the whole form: the styling keys are required too.
const { form: made } = await forms.operations.createForm({
  body: {
    workspace_id: 1,
    title: 'Contact',
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
    properties: [{ id: crypto.randomUUID(), name: 'Name', type: 'text', required: true }],
  },
});

// The service's update replaces the whole form: a title alone is refused (422), and fields left
// out of `properties` are removed. updateKeeping reads the form and sends it back whole, changed.
const saved = await forms.forms.updateKeeping(made.id, { title: 'Contact us' });
console.log(saved.form.title, saved.form.properties.length); // Contact us 1

// Changes made from the form as read: a field added, the others kept.
await forms.forms.updateKeeping(made.id, (form) => ({
  properties: [...form.properties, { id: crypto.randomUUID(), name: 'Phone', type: 'phone_number' }],
}));
await forms.operations.deleteForm({ path: { form: made.id } });
// #endregion
