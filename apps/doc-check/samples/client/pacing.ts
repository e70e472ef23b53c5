import { createFormsClient, createRequestPacer } from '@forms-api/client';

const baseUrl = process.env.FORMS_API_BASE_URL!;
const token = process.env.FORMS_API_TOKEN!;

// #region pacing
// One budget for everything that spends the token's: the service allows 100 requests a minute.
const pacer = createRequestPacer({
  requestsPerMinute: 100,
  maxWaitMs: 120_000, // per request, after 429s; then it fails with kind 'rate_limited'
  onWait: ({ waitMs, reason, method, path }) => {
    if (waitMs >= 1_000) console.warn(`${method} ${path}: waiting ${Math.ceil(waitMs / 1_000)} s (${reason})`);
  },
});
const forms = createFormsClient({ baseUrl, token, pacing: pacer });
const reports = createFormsClient({ baseUrl, token, pacing: pacer, timeoutMs: 60_000 });
// Plain fetch (or openapi-fetch's `fetch` option) on the same budget.
const pacedFetch = pacer.fetch();

await forms.forms.get(11);
await reports.submissions.list(11, { perPage: 10 });
const response = await pacedFetch(`${baseUrl}/open/forms/11`, {
  headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
});
console.log(response.status);

const { requests, waitedMs, rateLimited } = pacer.stats();
console.log(`${requests} requests, ${Math.round(waitedMs / 1_000)} s waited, ${rateLimited} refused with 429`);
// #endregion
