// The public answer endpoint: saves a completed (or partial) submission and, for a completed one,
// dispatches submission.created before answering (so callers can read the events right after).
import type { Hono } from 'hono';
import { formOr404, jsonBody, runChecks, type SandboxContext } from '../context.js';
import { forbidden, json } from '../http.js';
import type { Form } from '../model.js';
import { serve } from '../operations.js';
import { isClosed } from '../presenters.js';

export function answerRoutes(app: Hono, ctx: SandboxContext): void {
  const refuseUnlessOpen = (form: Form) => {
    const full = form.maxSubmissionsCount !== null && ctx.store.completedCount(form.id) >= form.maxSubmissionsCount;
    if (form.visibility !== 'public' || isClosed(form, ctx.now()) || full) throw forbidden();
  };

  serve(app, 'createFormAnswer', async (c) => {
    const form = formOr404(ctx, c.req.param('form')!, true);
    let body: Record<string, unknown> = {};
    let answers: ReadonlyMap<string, unknown> = new Map();
    await runChecks(ctx, 'createFormAnswer', {
      open: () => refuseUnlessOpen(form),
      input: async () => {
        body = await jsonBody(c);
        const checked = ctx.rules.answers.create(ctx, form, body, body.is_partial === true);
        if (!checked.ok) throw checked.error.toHttpError();
        answers = checked.value;
      },
    });
    const partial = body.is_partial === true;
    // Other answers may have arrived while the body was read: the limit is judged again, with the save.
    refuseUnlessOpen(form);
    // Validated already (an integer, or in observed its text too): stored as a number.
    const completionTime = body.completion_time != null && Number.isInteger(Number(body.completion_time)) ? Number(body.completion_time) : null;
    // A new submission keeps the answers given; empty ones are not stored.
    const stored = Object.fromEntries([...answers].filter(([, value]) => value !== null));
    const saved = ctx.store.addSubmission(form.id, partial ? 'partial' : 'completed', stored, completionTime, ctx.now());
    if (partial) return json(200, { type: 'success', message: 'Partial submission saved', submission_hash: saved.publicId });
    await ctx.dispatcher.submissionSaved(form, saved, 'created');
    return json(200, { type: 'success', message: 'Form submission saved.', submission_id: saved.publicId, is_first_submission: false, redirect: false });
  });
}
