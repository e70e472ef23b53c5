import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// #region pages
for await (const page of forms.submissions.pages(11, { status: 'partial' }, { maxPages: 50 })) {
  console.log(`page ${page.meta.current_page}/${page.meta.last_page}`);
}
// #endregion
