// listWorkspaceForms and getForm.
import type { Hono } from 'hono';
import { authorise, caller, formOr404, pathId, type SandboxContext } from '../context.js';
import { json, notFound } from '../http.js';
import { serve } from '../operations.js';
import { lengthAwarePage, listRequest, pageOf, phpInt, queryValue } from '../paging.js';
import { fullForm } from '../presenters.js';

export function formRoutes(app: Hono, ctx: SandboxContext): void {
  serve(app, 'listWorkspaceForms', (c) => {
    const who = caller(ctx, c);
    const named = pathId(ctx.rules.ids.integer(c.req.param('workspaceId')!), 'Workspace', 0);
    const id = 'id' in named ? named.id : 0;
    const workspace = ctx.store.workspaces.get(id);
    if (!workspace) throw notFound('Workspace', id);
    authorise(ctx, who, workspace.id, 'listWorkspaceForms');
    // Never refused: the page size is clamped to 1..100 (default 10), a page below 1 is page 1.
    const perPageValue = queryValue(c, 'per_page');
    const perPage = Math.min(Math.max(perPageValue === undefined ? 10 : phpInt(perPageValue), 1), 100);
    const page = lengthAwarePage(ctx.store.formsOf(workspace.id), pageOf(queryValue(c, 'page')), perPage);
    const presented = { ...page, items: page.items.map((f) => ctx.rules.present.formSummary(ctx, f)) };
    return json(
      200,
      ctx.rules.listing.workspaceFormsBody(
        presented,
        listRequest(c, `${ctx.baseUrl}/open/workspaces/${workspace.id}/forms`),
      ),
    );
  });

  serve(app, 'getForm', (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('form')!, true);
    authorise(ctx, who, form.workspaceId, 'getForm');
    return json(200, fullForm(ctx, ctx.rules.present, form));
  });
}
