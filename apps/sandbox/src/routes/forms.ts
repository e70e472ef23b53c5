// listWorkspaceForms and getForm.
import type { Hono } from 'hono';
import { authorise, caller, formOr404, validateQuery, type SandboxContext } from '../context.js';
import { json, notFound } from '../http.js';
import { serve } from '../operations.js';
import { formSummary, fullForm } from '../presenters.js';

export function formRoutes(app: Hono, ctx: SandboxContext): void {
  serve(app, 'listWorkspaceForms', (c) => {
    const who = caller(ctx, c);
    const raw = c.req.param('workspaceId')!;
    const workspace = /^\d+$/.test(raw) ? ctx.store.workspaces.get(Number(raw)) : undefined;
    if (!workspace) throw notFound('Workspace', /^\d+$/.test(raw) ? Number(raw) : 0);
    authorise(who, workspace.id, 'listWorkspaceForms');
    const query = validateQuery(ctx, c, 'listWorkspaceForms') as { page: number; per_page: number };
    const forms = ctx.store.formsOf(workspace.id);
    const page = forms.slice((query.page - 1) * query.per_page, query.page * query.per_page);
    return json(200, { data: page.map((f) => formSummary(ctx, f)), meta: { current_page: query.page, per_page: query.per_page, total: forms.length } });
  });

  serve(app, 'getForm', (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('form')!, true);
    authorise(who, form.workspaceId, 'getForm');
    return json(200, fullForm(ctx, form));
  });
}
