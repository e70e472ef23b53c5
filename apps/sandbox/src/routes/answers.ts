// The public answer endpoint: saves a completed (or partial) submission, new or resumed as the
// rules say, and, for a completed one, dispatches submission.created (before answering unless the
// rules queue deliveries).
import type { Hono } from 'hono';
import { formOr404, jsonBody, runChecks, type SandboxContext } from '../context.js';
import { forbidden, HttpError, json } from '../http.js';
import type { Form, Submission } from '../model.js';
import type { SubmissionSave } from '../rules.js';
import { serve } from '../operations.js';
import { isClosed } from '../presenters.js';

export function answerRoutes(app: Hono, ctx: SandboxContext): void {
  const refuseUnlessOpen = (form: Form) => {
    const full = form.maxSubmissionsCount !== null && ctx.store.completedCount(form.id) >= form.maxSubmissionsCount;
    if (form.visibility !== 'public' || isClosed(form, ctx.now()) || full) throw forbidden();
  };

  serve(app, 'createFormAnswer', async (c) => {
    const form = formOr404(ctx, c.req.param('form')!, true);
    const plan = ctx.store.workspaces.get(form.workspaceId)?.plan ?? 'free';
    const rules = ctx.rules.publicAnswers;
    let body: Record<string, unknown> = {};
    let answers: ReadonlyMap<string, unknown> = new Map();
    let partial = false;
    await runChecks(ctx, 'createFormAnswer', {
      open: () => refuseUnlessOpen(form),
      input: async () => {
        body = await jsonBody(c, ctx.rules.notAnObjectBody);
        partial = rules.partial(form, plan, body);
        const checked = ctx.rules.answers.create(ctx, form, body, partial);
        if (!checked.ok) throw checked.error.toHttpError();
        answers = checked.value;
      },
    });
    if (
      partial &&
      rules.refusesEmptyPartial &&
      ![...answers.values()].some((v) => v !== null && v !== false && !(Array.isArray(v) && v.length === 0))
    ) {
      throw new HttpError(422, {
        type: 'error',
        message: 'At least one field must have a value for partial submissions.',
      });
    }
    const resumed = rules.resumes(ctx.store, form, plan, body);
    // Other answers may have arrived while the body was read: the limit is judged again, with the save.
    refuseUnlessOpen(form);
    const firstSubmission = rules.reportsFirstSubmission && ctx.store.completedCount(form.id) === 0;
    // Validated already (an integer, or in observed its text too): stored as a number.
    const completionTime =
      body.completion_time != null && Number.isInteger(Number(body.completion_time))
        ? Number(body.completion_time)
        : null;
    // A new submission keeps the answers given; empty ones are not stored.
    const stored = Object.fromEntries([...answers].filter(([, value]) => value !== null));
    const status = partial ? 'partial' : 'completed';
    const meta = rules.meta(form, plan, body, ctx.clientAddress(c), resumed === undefined, resumed?.meta);
    let saved: Submission;
    let save: SubmissionSave = 'created';
    if (resumed) {
      // A partial completed is its creation as far as webhooks go; a completed one edited is an update.
      save = resumed.status === 'completed' ? 'updated' : 'created';
      ctx.store.updateSubmission(resumed, { answers: stored, completionTime, status });
      if (meta) resumed.meta = meta;
      saved = resumed;
    } else {
      saved = ctx.store.addSubmission(form.id, status, stored, completionTime, ctx.now(), meta);
    }
    await ctx.dispatcher.submissionSaved(form, saved, partial ? 'partial' : save);
    if (partial)
      return json(200, { type: 'success', message: 'Partial submission saved', submission_hash: saved.publicId });
    return json(200, {
      type: 'success',
      message: 'Form submission saved.',
      submission_id: saved.publicId,
      is_first_submission: firstSubmission,
      redirect: false,
    });
  });
}
