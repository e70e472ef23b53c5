// listFormSubmissions, updateFormSubmission, deleteFormSubmission and the signed file download.
import type { Hono } from 'hono';
import { authorise, caller, formOr404, jsonBody, pathId, runChecks, type SandboxContext } from '../context.js';
import type { StoredFile } from '../files.js';
import { HttpError, json, notFound } from '../http.js';
import type { Form, Submission } from '../model.js';
import { serve } from '../operations.js';
import { lengthAwarePage, listRequest, pageOf, queryValue } from '../paging.js';

const STATUS_FILTERS = new Set(['completed', 'partial']);

function submissionOr404(ctx: SandboxContext, form: Form, raw: string): Submission {
  const named = pathId(ctx.rules.ids.submission(raw), 'Forms\\FormSubmission');
  const found = 'id' in named ? ctx.store.submission(form.id, named.id) : undefined;
  if (!found) throw notFound('Forms\\FormSubmission');
  return found;
}

/** The stored file of the form with this name, if a file or signature answer holds it. */
function storedFile(ctx: SandboxContext, form: Form, name: string): StoredFile | undefined {
  return ctx.store.holdsFile(form.id, name) ? { formId: form.id, name } : undefined;
}

export function submissionRoutes(app: Hono, ctx: SandboxContext): void {
  serve(app, 'listFormSubmissions', (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('id')!);
    authorise(ctx, who, form.workspaceId, 'listFormSubmissions');
    // No parameter is refused: each is read as the spec describes (an unknown status is none).
    const status = queryValue(c, 'status');
    const filter = status && STATUS_FILTERS.has(status) ? (status as 'completed' | 'partial') : 'all';
    const workspace = ctx.store.workspaces.get(form.workspaceId)!;
    if (filter === 'partial' && !ctx.rules.partialFilterPlans.includes(workspace.plan)) {
      throw new HttpError(403, {
        message: `Filtering partial submissions is a Pro feature, and workspace ${workspace.id} is on the ${workspace.plan} plan: list with status=completed or all, or upgrade the workspace.`,
      });
    }
    const term = ctx.rules.search.term(queryValue(c, 'search'));
    const rows = ctx.store.findSubmissions(form.id, {
      status: filter,
      ...(term !== undefined ? { matches: ctx.rules.search.matcher(term) } : {}),
    });
    const page = lengthAwarePage(
      rows,
      pageOf(queryValue(c, 'page')),
      ctx.rules.listing.submissionsPerPage(queryValue(c, 'per_page')),
    );
    const presented = { ...page, items: page.items.map((s) => ctx.rules.present.submission(ctx, form, s)) };
    return json(
      200,
      ctx.rules.listing.submissionsBody(presented, listRequest(c, `${ctx.baseUrl}/open/forms/${form.id}/submissions`)),
    );
  });

  serve(app, 'updateFormSubmission', async (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('id')!);
    let body: Record<string, unknown> = {};
    let answers: ReadonlyMap<string, unknown> = new Map();
    await runChecks(ctx, 'updateFormSubmission', {
      submission: () => void submissionOr404(ctx, form, c.req.param('submission_id')!),
      permission: () => authorise(ctx, who, form.workspaceId, 'updateFormSubmission', { editor: true }),
      input: async () => {
        body = await jsonBody(c, ctx.rules.notAnObjectBody);
        const checked = ctx.rules.answers.update(ctx, form, body);
        if (!checked.ok) throw checked.error.toHttpError();
        answers = checked.value;
      },
    });
    // Looked up again after the body was read: what is changed is the submission as it is now.
    const target = submissionOr404(ctx, form, c.req.param('submission_id')!);
    ctx.store.updateSubmission(target, ctx.rules.answers.updated(target, answers, body));
    await ctx.dispatcher.submissionSaved(form, target, 'updated');
    return json(200, ctx.rules.present.updatedSubmission(ctx, form, target));
  });

  // FormSubmissionController.php:217-228: the form (404), the permission (403), then the
  // submission, its id read as PHP's (int) reads it, unknown answered 404 with an empty message.
  serve(app, 'deleteFormSubmission', (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('id')!);
    authorise(ctx, who, form.workspaceId, 'deleteFormSubmission', { editor: true });
    const leadingInt = /^[ \t\n\r\v\f]*([+-]?\d+)/.exec(c.req.param('submission_id')!)?.[1];
    const submission = leadingInt === undefined ? undefined : ctx.store.submission(form.id, Number(leadingInt));
    if (!submission) throw new HttpError(404, { message: '' });
    ctx.store.removeSubmission(submission);
    return json(200, { type: 'success', message: 'Record successfully removed.' });
  });

  serve(app, 'downloadSubmissionFile', (c) => {
    const form = formOr404(ctx, c.req.param('form')!);
    const checked = ctx.files.check(
      form.id,
      c.req.param('filename')!,
      c.req.query('expires'),
      c.req.query('signature'),
    );
    if (!checked.ok) throw new HttpError(403, { message: 'Invalid signature.' });
    const file = storedFile(ctx, form, checked.value);
    if (!file) throw new HttpError(404, { type: 'error', message: 'File not found.' });
    return ctx.rules.download(ctx, file);
  });
}
