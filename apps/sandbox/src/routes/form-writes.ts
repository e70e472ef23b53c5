// listAllForms, createForm, updateForm and deleteForm, observed at aee613da (the published
// contract does not show them): a whole form is written each time (UserFormRequest.php:105-209),
// and a deleted form is gone from every path and list (the service's soft delete, Form.php:36).
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import {
  authorise,
  caller,
  formOr404,
  jsonBody,
  requireAbility,
  validateBody,
  type SandboxContext,
} from '../context.js';
import { json } from '../http.js';
import type { Field, Form } from '../model.js';
import { serve } from '../operations.js';
import { fullForm, isoWithOffset } from '../presenters.js';

/** The required styling keys of a form input, kept so that getForm shows them back. */
const STYLE_KEYS = [
  'theme',
  'presentation_style',
  'width',
  'size',
  'border_radius',
  'dark_mode',
  'color',
  'uppercase_labels',
  'no_branding',
  'transparent_background',
] as const;

/** The service trims a title and cuts it to 255 characters before checking it (FormDataNormalizer.php:15-17). */
function normalised(body: Record<string, any>): Record<string, any> {
  return typeof body.title === 'string' ? { ...body, title: body.title.trim().slice(0, 255) } : body;
}

/** A slug as the service makes one: the title's words, then a random suffix. */
function slugFor(title: string): string {
  const words = title
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  const suffix = randomBytes(4).toString('hex').slice(0, 6);
  return words ? `${words}-${suffix}` : suffix;
}

/** What a validated input sets on a form. */
function formFields(
  body: Record<string, any>,
): Pick<
  Form,
  'title' | 'visibility' | 'tags' | 'language' | 'properties' | 'closesAt' | 'maxSubmissionsCount' | 'style'
> {
  return {
    title: body.title,
    visibility: body.visibility,
    tags: Array.isArray(body.tags) ? body.tags : [],
    language: body.language,
    properties: body.properties as Field[],
    closesAt: typeof body.closes_at === 'string' ? body.closes_at : null,
    maxSubmissionsCount: typeof body.max_submissions_count === 'number' ? body.max_submissions_count : null,
    style: Object.fromEntries(STYLE_KEYS.map((k) => [k, body[k]])),
  };
}

export function formWriteRoutes(app: Hono, ctx: SandboxContext): void {
  // FormController.php:110-131: the ability is checked per workspace of the user, so a user with
  // no workspace gets an empty list whatever the token holds.
  serve(app, 'listAllForms', (c) => {
    const who = caller(ctx, c);
    const workspaces = ctx.store.workspacesOf(who.user);
    if (workspaces.length > 0) requireAbility(ctx, who, 'listAllForms');
    return json(
      200,
      workspaces.flatMap((w) => ctx.store.formsOf(w.id).map((f) => fullForm(ctx, ctx.rules.present, f))),
    );
  });

  // The body first (422, workspace_id included), then a writing member of that workspace (403).
  serve(app, 'createForm', async (c) => {
    const who = caller(ctx, c);
    const body = await validateBody(ctx, normalised(await jsonBody(c, ctx.rules.notAnObjectBody)), 'createForm', {
      more: (b, errors) => {
        if (Number.isInteger(b.workspace_id) && !ctx.store.workspaces.has(b.workspace_id))
          errors.add('workspace_id', 'The selected workspace id is invalid.');
      },
    });
    authorise(ctx, who, body.workspace_id, 'createForm', { editor: true });
    const usersFirstForm = ctx.store.workspacesOf(who.user).every((w) => ctx.store.formsOf(w.id).length === 0);
    const now = isoWithOffset(ctx.now());
    const form = ctx.store.addForm({
      workspaceId: body.workspace_id,
      slug: slugFor(body.title),
      ...formFields(body),
      viewsCount: 0,
      createdAt: now,
      updatedAt: now,
    });
    return json(200, {
      type: 'success',
      message: 'Form created.',
      form: fullForm(ctx, ctx.rules.present, form),
      users_first_form: usersFirstForm,
    });
  });

  // An unknown form is 404, then the body (422), then a writing member (403): FormController.php:157-183.
  serve(app, 'updateForm', async (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('form')!, true);
    const body = await validateBody(ctx, normalised(await jsonBody(c, ctx.rules.notAnObjectBody)), 'updateForm');
    authorise(ctx, who, form.workspaceId, 'updateForm', { editor: true });
    // Deleted while the body was read: as if it had been deleted first.
    const current = formOr404(ctx, String(form.id));
    Object.assign(current, formFields(body), { updatedAt: isoWithOffset(ctx.now()) });
    return json(200, { type: 'success', message: 'Form updated.', form: fullForm(ctx, ctx.rules.present, current) });
  });

  serve(app, 'deleteForm', (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('form')!, true);
    authorise(ctx, who, form.workspaceId, 'deleteForm', { editor: true });
    ctx.store.deleteForm(form.id);
    return json(200, { type: 'success', message: 'Form was deleted.' });
  });
}
