import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });
const controller = new AbortController();

// #region raw
forms.use({
  onRequest({ request }) {
    request.headers.set('X-Request-Id', crypto.randomUUID());
  },
});
const { data, error, response } = await forms.GET('/open/forms/{id}/submissions', {
  params: { path: { id: 11 }, query: { status: 'all', per_page: 50 } },
  signal: controller.signal,
  // A helper's call options apply to a raw call too.
  timeoutMs: 5_000,
  maxResponseBytes: 1024 * 1024,
});
// #endregion
if (error || !data) throw new Error(`listing failed with ${response.status}`);
console.log(data.meta.total);
