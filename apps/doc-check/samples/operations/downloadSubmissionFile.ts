import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// A file answer's file_url is a signed link, valid 10 minutes; the client sends it without the
// token and follows a redirect to storage.
const response = await forms.submissions.downloadFile(process.env.FORMS_FILE_URL!);
const bytes = new Uint8Array(await response.arrayBuffer());
console.log(response.headers.get('content-type'), bytes.length);
