import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

const page = await forms.forms.list(1, { perPage: 10 });
console.log(JSON.stringify(page));
