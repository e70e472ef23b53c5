// Records as the service's API resources present them: FormListResource, FormSubmissionResource
// (also the update's answer), FormIntegrationResource and FormIntegrationsEventResource.
import type { DeliveryOutcome, Form, Submission, WebhookEventRecord } from '../../model.js';
import { CONTRACT_PRESENTERS, sqlTime, summaryFields, type Presenters } from '../../presenters.js';
import type { RuleContext } from '../../rule-context.js';

type Body = Record<string, unknown>;
const FILE_TYPES = new Set(['files', 'signature']);

/** PostgreSQL's jsonb key order: shorter keys first, then by their UTF-8 bytes. */
const jsonbKeyOrder = (a: string, b: string) =>
  Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A value as a jsonb column gives it back: every object's keys re-sorted, at every depth (arrays keep their order). */
export function jsonbOrdered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrdered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort(jsonbKeyOrder)
      .map((key) => [key, jsonbOrdered((value as Body)[key])]),
  );
}

/** PHP's empty(): what FormSubmissionResource leaves as it is instead of mapping to file entries. */
const phpEmpty = (v: unknown) =>
  v === null ||
  v === undefined ||
  v === '' ||
  v === '0' ||
  v === false ||
  v === 0 ||
  (Array.isArray(v) && v.length === 0);

/**
 * FormSubmissionResource.php:88-112: a file answer's entries become `{file_url, file_name}`, and
 * the empty ones are filtered out with their positions kept, so a list whose empty entry comes
 * before a file is no longer 0..n-1 and is encoded as an object keyed by position
 * (ledger: submission-file-answer-object).
 */
function fileEntries(ctx: RuleContext, form: Form, value: unknown): unknown {
  const items = Array.isArray(value) ? value : [value];
  const kept = items
    .map((name, position) => [position, name] as const)
    .filter(([, name]) => name !== null && name !== '');
  const entries = kept.map(
    ([position, name]) =>
      [position, { file_url: ctx.files.url(ctx.baseUrl, form.id, String(name)), file_name: String(name) }] as const,
  );
  return entries.every(([position], i) => position === i)
    ? entries.map(([, entry]) => entry)
    : Object.fromEntries(entries.map(([position, entry]) => [String(position), entry]));
}

function submissionResource(ctx: RuleContext, form: Form, s: Submission): Body {
  const types = new Map(form.properties.map((f) => [f.id, f.type]));
  const answers: Body = {};
  // `data` is a jsonb column (migration 2021_05_24_234028_create_form_submissions_table.php:20-27): its keys come back re-sorted, nested ones too.
  for (const [id, value] of Object.entries(jsonbOrdered(s.answers) as Body))
    answers[id] = FILE_TYPES.has(types.get(id) ?? '') && !phpEmpty(value) ? fileEntries(ctx, form, value) : value;
  // The public UUID is `submission_id`, in `data` and at the top (FormSubmissionResource.php:33-69).
  // FormSubmissionResource.php:39-42, 64-66: the address inside `data` where the form and the plan
  // track it and meta is kept; the attribution as `meta` at the top when there is one.
  const tracksIp =
    form.ipTracking &&
    ctx.store.workspaces.get(form.workspaceId)?.plan === 'pro' &&
    s.meta !== undefined &&
    Object.keys(s.meta).length > 0;
  const attribution = s.meta?.attribution;
  return {
    data: {
      ...answers,
      status: s.status,
      created_at: sqlTime(s.createdAt),
      id: s.id,
      submission_id: s.publicId,
      ...(tracksIp ? { ip_address: s.meta?.ip_address ?? null } : {}),
    },
    completion_time: s.completionTime,
    form_id: s.formId,
    id: s.id,
    submission_id: s.publicId,
    ...(attribution && Object.keys(attribution).length > 0 ? { meta: { attribution } } : {}),
  };
}

const CURL_ERRORS = '(see https://curl.haxx.se/libcurl/c/libcurl-errors.html)';

/** Guzzle's body summary: at most 120 bytes (then " (truncated...)"), none when empty or not printable. */
function bodySummary(body: string): string | null {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length === 0) return null;
  const summary = bytes.subarray(0, 120).toString('utf8') + (bytes.length > 120 ? ' (truncated...)' : '');
  return /[^\p{L}\p{M}\p{N}\p{P}\p{S}\p{Z}\n\r\t]/u.test(summary) ? null : summary;
}

const parsedOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/**
 * AbstractIntegrationHandler.php:88-105, 184-196: success when the handler returned (a 2xx or
 * 3xx answer, or nothing sent because the logic did not match), else an error with the
 * exception's message; a receiver's 4xx/5xx adds its status and its JSON-decoded answer. Data is
 * jsonb: keys come back by length (status, message, response).
 */
function eventData(url: string, outcome: DeliveryOutcome): { status: 'Success' | 'Error'; data: Body } {
  switch (outcome.kind) {
    case 'skipped':
      return { status: 'Success', data: {} };
    case 'answered': {
      if (outcome.status < 400) return { status: 'Success', data: {} };
      const summary = bodySummary(outcome.excerpt);
      const message = `HTTP request returned status code ${outcome.status}${summary === null ? '' : `:\n${summary}\n`}`;
      return {
        status: 'Error',
        data: { status: outcome.status, message, response: jsonbOrdered(parsedOrNull(outcome.excerpt)) },
      };
    }
    case 'refused':
      return { status: 'Error', data: { message: outcome.reason } };
    case 'timeout':
      return {
        status: 'Error',
        data: {
          message: `cURL error 28: Operation timed out after ${outcome.afterMs} milliseconds with 0 bytes received ${CURL_ERRORS} for ${url}`,
        },
      };
    case 'unreachable': {
      const { hostname, port, protocol } = new URL(url);
      const message =
        outcome.code === 'ECONNREFUSED'
          ? `cURL error 7: Failed to connect to ${hostname} port ${port || (protocol === 'https:' ? 443 : 80)}: Couldn't connect to server`
          : outcome.code === 'ENOTFOUND' || outcome.code === 'EAI_AGAIN'
            ? `cURL error 6: Could not resolve host: ${hostname}`
            : `cURL error 56: ${outcome.message}`;
      return { status: 'Error', data: { message: `${message} ${CURL_ERRORS} for ${url}` } };
    }
  }
}

export const LARAVEL_RESOURCES: Presenters = {
  // FormListResource.php:21-39: `plan_tier` (the workspace's tier) where the contract has `is_pro`
  // (ledger: form-summary-plan-tier), and `tags` as stored, null included (ledger: form-summary-tags-null).
  formSummary: (ctx, form) =>
    summaryFields(ctx, form, { plan_tier: ctx.store.workspaces.get(form.workspaceId)?.plan ?? 'free' }),
  submission: submissionResource,
  // FormSubmissionController.php:94-100: `success()` with the submission resource
  // (ledger: update-submission-response-shape).
  updatedSubmission: (ctx, form, s) => ({
    type: 'success',
    message: 'Record successfully updated.',
    data: submissionResource(ctx, form, s),
  }),
  // FormIntegrationResource: the model's columns in table order (the contract's record, whose keys
  // keep their places), headers only when stored, then `deleted_at` and `provider` (null for webhooks).
  integration: (i) => ({
    ...CONTRACT_PRESENTERS.integration(i),
    // FormIntegrationsRequest.php:108: `{}` decodes to PHP's empty array, stored and given back as `[]`.
    logic: i.logic && typeof i.logic === 'object' && Object.keys(i.logic).length > 0 ? i.logic : [],
    data: {
      webhook_url: i.data.webhook_url,
      ...(i.data.webhook_secret ? { webhook_secret: i.data.webhook_secret } : {}),
      ...(i.data.webhook_headers ? { webhook_headers: i.data.webhook_headers } : {}),
    },
    deleted_at: null,
    provider: null,
  }),
  // FormIntegrationsEventResource.php:17-21: `{date, status, data}` (ledger: events-shape).
  webhookEvent: (e: WebhookEventRecord) => ({
    date: sqlTime(e.createdAt).slice(0, 16),
    ...eventData(e.url, e.outcome),
  }),
};
