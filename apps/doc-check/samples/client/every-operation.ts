import { createFormsClient, isFormsApiError } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// #region operations
// Any operation of the spec, by its operationId: `path`, `query` and `body` named and typed as the
// spec has them, the 200 body typed as the spec says.
const page = await forms.operations.listFormSubmissions({
  path: { id: 11 },
  query: { status: 'completed', per_page: 10 },
});
console.log(page.meta.total, page.data[0]?.id);

const saved = await forms.operations.createFormIntegration({
  path: { form: 11 },
  body: {
    integration_id: 'webhook',
    status: 'active',
    data: { webhook_url: process.env.RECEIVER_URL ?? 'https://example.com/webhooks/forms' },
  },
});
await forms.operations.deleteFormIntegration({ path: { form: 11, integrationid: saved.form_integration.id } });

// A request that does not fit the operation is refused before anything is sent.
try {
  await forms.operations.getForm({ path: { form: '..' } });
} catch (err) {
  if (isFormsApiError(err) && err.kind === 'invalid_option') console.error(err.message);
  else throw err;
}
// #endregion
