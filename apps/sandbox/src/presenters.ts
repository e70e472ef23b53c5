// Turns stored records into the shapes clients see (FormSummary, Form, Submission, …). The
// contract's presenters are here; the full form builds on whichever form summary the rules give.
import { storedFileNames } from './files.js';
import type { Form, Integration, Submission, WebhookEventRecord } from './model.js';
import type { RuleContext } from './rule-context.js';

type Body = Record<string, unknown>;

/** Stored records → what clients see. */
export interface Presenters {
  formSummary(ctx: RuleContext, form: Form): Body;
  submission(ctx: RuleContext, form: Form, s: Submission): Body;
  /** The answer of a successful update. */
  updatedSubmission(ctx: RuleContext, form: Form, s: Submission): Body;
  integration(i: Integration): Body;
  webhookEvent(e: WebhookEventRecord): Body;
}

export const isoWithOffset = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
/** Eloquent's serialisation of a timestamp: microseconds, always zero. */
export const laravelTimestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '.000000Z');
/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export const sqlTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

export function humanAgo(fromIso: string, now: number): string {
  const seconds = Math.max(1, Math.round((now - Date.parse(fromIso)) / 1000));
  const units: Array<[string, number]> = [
    ['year', 31536000],
    ['month', 2592000],
    ['week', 604800],
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ];
  const [unit, size] = units.find(([, s]) => seconds >= s)!;
  const n = Math.floor(seconds / size);
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

export function shareUrl(form: Form): string {
  return `https://forms.example.com/forms/${form.slug}`;
}

export function isClosed(form: Form, now: number): boolean {
  return form.visibility === 'closed' || (form.closesAt !== null && Date.parse(form.closesAt) < now);
}

/** The summary's facts in the order the contract lists them; the plan field is the caller's. */
export function summaryFields(ctx: RuleContext, form: Form, plan: Body): Body {
  const completed = ctx.store.completedCount(form.id);
  return {
    id: form.id,
    slug: form.slug,
    title: form.title,
    visibility: form.visibility,
    tags: form.tags,
    views_count: form.viewsCount,
    submissions_count: completed,
    created_at: form.createdAt,
    updated_at: form.updatedAt,
    last_edited_human: humanAgo(form.updatedAt, ctx.now()),
    closes_at: form.closesAt,
    is_closed: isClosed(form, ctx.now()),
    max_submissions_count: form.maxSubmissionsCount,
    max_number_of_submissions_reached: form.maxSubmissionsCount !== null && completed >= form.maxSubmissionsCount,
    ...plan,
    workspace_id: form.workspaceId,
    share_url: shareUrl(form),
  };
}

/**
 * The styling a form has when nothing set it (the seed's forms): values the service accepts, so a
 * form read and sent back whole (the update requires every one) is valid. The service's own
 * default presentation is `classic` (its forms migration); the others are the sandbox's choice.
 */
const DEFAULT_STYLE = {
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
};

/** The full form (getForm): the summary the rules present, plus the fields and the captcha. */
export function fullForm(ctx: RuleContext, present: Presenters, form: Form): Body {
  const { share_url, ...summary } = present.formSummary(ctx, form);
  return {
    ...summary,
    language: form.language,
    properties: form.properties,
    ...DEFAULT_STYLE,
    ...form.style,
    use_captcha: form.captchaProvider !== undefined,
    captcha_provider: form.captchaProvider ?? 'recaptcha',
    share_url,
    created_at: laravelTimestamp(Date.parse(form.createdAt)),
    updated_at: laravelTimestamp(Date.parse(form.updatedAt)),
  };
}

const fileTypes = new Set(['files', 'signature']);

/** Answers as listed by the contract: file and signature names become file entries with signed URLs. */
export function presentAnswers(ctx: RuleContext, form: Form, answers: Record<string, unknown>): Body {
  const types = new Map(form.properties.map((f) => [f.id, f.type]));
  const out: Body = {};
  for (const [id, value] of Object.entries(answers)) {
    out[id] =
      fileTypes.has(types.get(id) ?? '') && value !== null
        ? storedFileNames(value).map((name) => ({
            file_url: ctx.files.url(ctx.baseUrl, form.id, name),
            file_name: name,
          }))
        : value;
  }
  return out;
}

/** What a dispatch outcome is, in the contract's words: success, failed or timeout, the receiver's status and the error. */
export function contractEventFields(e: WebhookEventRecord): {
  status: 'success' | 'failed' | 'timeout';
  response_code: number | null;
  error_message: string | null;
} {
  const { outcome } = e;
  switch (outcome.kind) {
    // Like the service: 2xx and 3xx count as delivered; 4xx and 5xx as failed.
    case 'answered':
      return outcome.status < 400
        ? { status: 'success', response_code: outcome.status, error_message: null }
        : {
            status: 'failed',
            response_code: outcome.status,
            error_message: `HTTP request returned status code ${outcome.status}${outcome.excerpt ? `: ${outcome.excerpt.slice(0, 120)}` : ''}`,
          };
    case 'refused':
      return { status: 'failed', response_code: null, error_message: outcome.reason };
    case 'timeout':
      return {
        status: 'timeout',
        response_code: null,
        error_message: `The receiver did not answer within ${outcome.afterMs} ms.`,
      };
    case 'unreachable':
      return {
        status: 'failed',
        response_code: null,
        error_message: `The receiver could not be reached: ${outcome.message}`,
      };
    case 'skipped':
      return { status: 'success', response_code: null, error_message: null };
  }
}

export const CONTRACT_PRESENTERS: Presenters = {
  // The contract's table: `tags` an array of strings and the boolean `is_pro`.
  formSummary: (ctx, form) => ({
    ...summaryFields(ctx, form, { is_pro: ctx.store.workspaces.get(form.workspaceId)!.plan === 'pro' }),
    tags: form.tags ?? [],
  }),
  submission: (ctx, form, s) => ({
    data: { ...presentAnswers(ctx, form, s.answers), status: s.status, created_at: sqlTime(s.createdAt), id: s.id },
    completion_time: s.completionTime,
    form_id: s.formId,
    id: s.id,
  }),
  updatedSubmission: (ctx, form, s) => ({
    message: 'Record successfully updated.',
    data: {
      submission_id: s.id,
      form_id: s.formId,
      submitted_at: isoWithOffset(ctx.now()),
      data: presentAnswers(ctx, form, s.answers),
    },
  }),
  integration: (i) => ({
    id: i.id,
    form_id: i.formId,
    status: i.status,
    integration_id: 'webhook',
    logic: i.logic ?? [],
    data: {
      webhook_url: i.data.webhook_url,
      ...(i.data.webhook_secret ? { webhook_secret: i.data.webhook_secret } : {}),
      webhook_headers: i.data.webhook_headers ?? {},
    },
    oauth_id: null,
    created_at: laravelTimestamp(i.createdAt),
    updated_at: laravelTimestamp(i.updatedAt),
  }),
  webhookEvent: (e) => ({
    id: e.id,
    integration_id: e.integrationId,
    event: 'submission.created',
    ...contractEventFields(e),
    created_at: isoWithOffset(e.createdAt),
  }),
};
