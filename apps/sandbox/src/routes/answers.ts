// The public answer endpoint: saves a completed (or partial) submission and, for a completed one,
// dispatches submission.created before answering (so callers can read the events right after).
import type { Hono } from 'hono';
import { checkAnswers } from '../answers.js';
import { formOr404, validateBody, type SandboxContext } from '../context.js';
import { forbidden, json } from '../http.js';
import type { Form } from '../model.js';
import { serve } from '../operations.js';
import { isClosed } from '../presenters.js';

const WEBHOOK_FILE_URL_LIFETIME_S = 24 * 60 * 60;

export function answerRoutes(app: Hono, ctx: SandboxContext): void {
  const refuseUnlessOpen = (form: Form) => {
    const full = form.maxSubmissionsCount !== null && ctx.store.completedCount(form.id) >= form.maxSubmissionsCount;
    if (form.visibility !== 'public' || isClosed(form, ctx.now()) || full) throw forbidden();
  };

  serve(app, 'createFormAnswer', async (c) => {
    const form = formOr404(ctx, c.req.param('form')!, true);
    refuseUnlessOpen(form);
    const body = await validateBody(ctx, c, 'createFormAnswer');
    const partial = body.is_partial === true;
    const checked = checkAnswers(form, body, !partial);
    if (!checked.ok) throw checked.error.toHttpError();
    // Other answers may have arrived while the body was read: the limit is judged again, with the save.
    refuseUnlessOpen(form);
    const completionTime = typeof body.completion_time === 'number' ? body.completion_time : null;
    const saved = ctx.store.addSubmission(form.id, partial ? 'partial' : 'completed', Object.fromEntries(checked.value), completionTime, ctx.now());
    if (partial) return json(200, { type: 'success', message: 'Partial submission saved', submission_hash: saved.publicId });
    await ctx.dispatcher.submissionCreated(form, saved, (name) => ctx.files.url(ctx.baseUrl, form.id, name, WEBHOOK_FILE_URL_LIFETIME_S));
    return json(200, { type: 'success', message: 'Form submission saved.', submission_id: saved.publicId, is_first_submission: false, redirect: false });
  });
}
