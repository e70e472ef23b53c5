// listFormSubmissions, updateFormSubmission and the signed file download.
import { create as contentDisposition } from 'content-disposition';
import type { Hono } from 'hono';
import { checkAnswers } from '../answers.js';
import { authorise, caller, formOr404, validateBody, validateQuery, type SandboxContext } from '../context.js';
import { HttpError, json, notFound } from '../http.js';
import type { Form, Submission } from '../model.js';
import { serve } from '../operations.js';
import { submission, updatedSubmission } from '../presenters.js';
import { searchNeedle } from '../store/search.js';

type ListQuery = { page: number; per_page: number; search?: string; status: 'all' | 'completed' | 'partial' };

/** The page numbers a Laravel paginator shows, with null for "...". */
function shownPages(page: number, lastPage: number): Array<number | null> {
  const pages = Array.from({ length: lastPage }, (_, i) => i + 1);
  if (lastPage < 14) return pages;
  if (page <= 7) return [...pages.slice(0, 10), null, lastPage - 1, lastPage];
  if (page > lastPage - 7) return [1, 2, null, ...pages.slice(lastPage - 10)];
  return [1, 2, null, ...pages.slice(page - 4, page + 3), null, lastPage - 1, lastPage];
}

function submissionOr404(ctx: SandboxContext, form: Form, raw: string): Submission {
  const found = /^\d+$/.test(raw) ? ctx.store.submission(form.id, Number(raw)) : undefined;
  if (!found) throw notFound('Forms\\FormSubmission');
  return found;
}

export function submissionRoutes(app: Hono, ctx: SandboxContext): void {
  serve(app, 'listFormSubmissions', (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('id')!);
    authorise(who, form.workspaceId, 'listFormSubmissions');
    const query = validateQuery(ctx, c, 'listFormSubmissions') as ListQuery;
    const workspace = ctx.store.workspaces.get(form.workspaceId)!;
    if (query.status === 'partial' && workspace.plan !== 'pro') {
      throw new HttpError(402, { message: 'Filtering partial submissions is a Pro feature.', feature: 'partial_submissions', required_tier: 'pro', current_tier: workspace.plan });
    }
    const needle = searchNeedle(query.search);
    const rows = ctx.store.findSubmissions(form.id, { status: query.status, ...(needle !== undefined ? { needle } : {}) });
    const { page, per_page: perPage } = query;
    const slice = rows.slice((page - 1) * perPage, page * perPage);
    const lastPage = Math.max(1, Math.ceil(rows.length / perPage));
    const path = `${ctx.baseUrl}/open/forms/${form.id}/submissions`;
    // Unlike the live service (known drift), links keep the caller's filters.
    const kept = new URLSearchParams();
    for (const [k, v] of Object.entries({ search: query.search, status: c.req.query('status'), per_page: c.req.query('per_page') })) if (v !== undefined) kept.set(k, String(v));
    const link = (p: number) => {
      kept.set('page', String(p));
      return `${path}?${kept}`;
    };
    const body = {
      data: slice.map((s) => submission(ctx, form, s)),
      links: { first: link(1), last: link(lastPage), prev: page > 1 ? link(page - 1) : null, next: page < lastPage ? link(page + 1) : null },
      meta: {
        current_page: page,
        from: slice.length > 0 ? (page - 1) * perPage + 1 : null,
        last_page: lastPage,
        links: [
          { url: page > 1 ? link(page - 1) : null, label: '&laquo; Previous', active: false },
          ...shownPages(page, lastPage).map((p) => (p === null ? { url: null, label: '...', active: false } : { url: link(p), label: String(p), active: p === page })),
          { url: page < lastPage ? link(page + 1) : null, label: 'Next &raquo;', active: false },
        ],
        path,
        per_page: perPage,
        to: slice.length > 0 ? (page - 1) * perPage + slice.length : null,
        total: rows.length,
      },
    };
    return json(200, body);
  });

  serve(app, 'updateFormSubmission', async (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('id')!);
    submissionOr404(ctx, form, c.req.param('submission_id')!);
    authorise(who, form.workspaceId, 'updateFormSubmission', { editor: true });
    const body = await validateBody(ctx, c, 'updateFormSubmission');
    const checked = checkAnswers(form, body, false);
    if (!checked.ok) throw checked.error.toHttpError();
    // Looked up again after the body was read: what is changed is the submission as it is now.
    const target = submissionOr404(ctx, form, c.req.param('submission_id')!);
    // The contract: only the fields sent change; the others keep their answers.
    ctx.store.updateSubmission(target, checked.value, typeof body.completion_time === 'number' ? body.completion_time : undefined);
    return json(200, updatedSubmission(ctx, form, target, ctx.now()));
  });

  serve(app, 'downloadSubmissionFile', (c) => {
    const form = formOr404(ctx, c.req.param('form')!);
    const checked = ctx.files.check(form.id, c.req.param('filename')!, c.req.query('expires'), c.req.query('signature'));
    if (!checked.ok) throw new HttpError(403, { message: 'Invalid signature.' });
    const name = checked.value;
    const stored = ctx.store.submissionsOf(form.id).some((s) => Object.values(s.answers).some((v) => Array.isArray(v) && v.includes(name)));
    if (!stored) throw new HttpError(404, { type: 'error', message: 'File not found.' });
    // RFC 6266: an ASCII fallback plus filename* in UTF-8, so any stored name makes a valid header.
    return new Response(`Sandbox file ${name} of form ${form.id}\n`, {
      status: 200,
      headers: { 'content-type': 'application/octet-stream', 'content-disposition': contentDisposition(name) },
    });
  });
}
