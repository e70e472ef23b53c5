// Turns stored records into the spec's resource shapes (FormSummary, Form, Submission, …).
import type { SandboxContext } from './context.js';
import type { Form, Integration, Submission, WebhookEventRecord } from './model.js';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
const laravel = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '.000000Z');
const sqlTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

function humanAgo(fromIso: string, now: number): string {
  const seconds = Math.max(1, Math.round((now - Date.parse(fromIso)) / 1000));
  const units: Array<[string, number]> = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];
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

export function formSummary(ctx: SandboxContext, form: Form): Record<string, unknown> {
  const completed = ctx.store.completedCount(form.id);
  const workspace = ctx.store.workspaces.get(form.workspaceId)!;
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
    is_pro: workspace.plan === 'pro',
    workspace_id: form.workspaceId,
    share_url: shareUrl(form),
  };
}

export function fullForm(ctx: SandboxContext, form: Form): Record<string, unknown> {
  const { share_url, ...summary } = formSummary(ctx, form);
  return {
    ...summary,
    language: form.language,
    properties: form.properties,
    share_url,
    created_at: laravel(Date.parse(form.createdAt)),
    updated_at: laravel(Date.parse(form.updatedAt)),
  };
}

/** Answers as listed: file and signature names become file entries with signed URLs. */
export function presentAnswers(ctx: SandboxContext, form: Form, answers: Record<string, unknown>): Record<string, unknown> {
  const types = new Map(form.properties.map((f) => [f.id, f.type]));
  const out: Record<string, unknown> = {};
  for (const [id, value] of Object.entries(answers)) {
    const type = types.get(id);
    out[id] = (type === 'files' || type === 'signature') && Array.isArray(value)
      ? value.map((name: string) => ({ file_url: ctx.files.url(ctx.baseUrl, form.id, name), file_name: name }))
      : value;
  }
  return out;
}

export function submission(ctx: SandboxContext, form: Form, s: Submission): Record<string, unknown> {
  return {
    data: { ...presentAnswers(ctx, form, s.answers), status: s.status, created_at: sqlTime(s.createdAt), id: s.id },
    completion_time: s.completionTime,
    form_id: s.formId,
    id: s.id,
  };
}

export function updatedSubmission(ctx: SandboxContext, form: Form, s: Submission, updatedAt: number): Record<string, unknown> {
  return {
    message: 'Record successfully updated.',
    data: { submission_id: s.id, form_id: s.formId, submitted_at: iso(updatedAt), data: presentAnswers(ctx, form, s.answers) },
  };
}

export function integration(i: Integration): Record<string, unknown> {
  return {
    id: i.id,
    form_id: i.formId,
    status: i.status,
    integration_id: 'webhook',
    logic: i.logic ?? [],
    data: { webhook_url: i.data.webhook_url, ...(i.data.webhook_secret ? { webhook_secret: i.data.webhook_secret } : {}), webhook_headers: i.data.webhook_headers ?? {} },
    oauth_id: null,
    created_at: laravel(i.createdAt),
    updated_at: laravel(i.updatedAt),
  };
}

export function webhookEvent(e: WebhookEventRecord): Record<string, unknown> {
  return {
    id: e.id,
    integration_id: e.integrationId,
    event: 'submission.created',
    status: e.status,
    response_code: e.responseCode,
    error_message: e.errorMessage,
    created_at: iso(e.createdAt),
  };
}
