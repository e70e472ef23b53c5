import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

const page = await forms.submissions.list(11, { status: 'completed', search: 'jane', perPage: 50 });
console.log(JSON.stringify(page));
