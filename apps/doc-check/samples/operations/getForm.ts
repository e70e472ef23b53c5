import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

const form = await forms.forms.get('contact-us-a1b2c3'); // an id or a slug
console.log(JSON.stringify(form));
