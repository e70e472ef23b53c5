// Webhook integrations of a form and their dispatch events.
import type { Context, Hono } from 'hono';
import { authorise, caller, formOr404, validateBody, type SandboxContext } from '../context.js';
import { checkWebhookUrl } from '../dispatch/webhook-url.js';
import { json, notFound } from '../http.js';
import type { Form, Integration } from '../model.js';
import { serve, type OperationId } from '../operations.js';
import { integration as present, webhookEvent } from '../presenters.js';

export function integrationRoutes(app: Hono, ctx: SandboxContext): void {
  // The names the spec lists as blocked; the sandbox answers them with the service's message.
  const blockedHeaders = new Set<string>((ctx.bundle.components.schemas.WebhookHeaders!['x-blocked-header-names'] as string[]).map((h) => h.toLowerCase()));

  /** 401, then 404 for the form and the integration the path names, then 403. */
  const managed = (c: Context, operationId: OperationId, withIntegration: boolean): { form: Form; integration?: Integration } => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('form')!);
    let integration: Integration | undefined;
    if (withIntegration) {
      const raw = c.req.param('integrationid')!;
      integration = /^\d+$/.test(raw) ? ctx.store.integrations.get(Number(raw)) : undefined;
      if (!integration || integration.formId !== form.id) throw notFound('Integration\\FormIntegration', /^\d+$/.test(raw) ? Number(raw) : 0);
    }
    authorise(who, form.workspaceId, operationId, { editor: true });
    return { form, ...(integration ? { integration } : {}) };
  };

  /** The spec's body check plus what the service checks beyond the schema (blocked headers, URL safety), in one 422. */
  const integrationInput = async (c: Context, operationId: OperationId) => {
    const body = await validateBody(ctx, c, operationId, {
      accept: (error, sent) =>
        // Blocked header names get the service's message below instead of the schema's "must NOT be valid".
        blockedHeaders.has(String(error.propertyName ?? error.params.propertyName ?? '').toLowerCase()) ||
        // With private webhooks allowed, plain http receivers are fine although the spec asks for https.
        (ctx.webhookUrls.allowPrivate && error.keyword === 'pattern' && error.instancePath === '/data/webhook_url' && /^http:\/\//i.test(String(sent.data?.webhook_url))),
      more: async (sent, errors) => {
        const headers = sent.data?.webhook_headers;
        const blockedName = headers && typeof headers === 'object' ? Object.keys(headers).find((name) => blockedHeaders.has(name.toLowerCase())) : undefined;
        if (blockedName) errors.add('data.webhook_headers', `The '${blockedName}' header cannot be customized for security reasons.`);
        if (typeof sent.data?.webhook_url === 'string') {
          const destination = await checkWebhookUrl(sent.data.webhook_url, ctx.webhookUrls);
          if (!destination.ok) errors.add('data.webhook_url', destination.error);
        }
      },
    });
    const data: Integration['data'] = { webhook_url: body.data.webhook_url };
    if (body.data.webhook_secret) data.webhook_secret = body.data.webhook_secret;
    if (body.data.webhook_headers) data.webhook_headers = body.data.webhook_headers;
    return { status: body.status as Integration['status'], data, logic: (body.logic as Integration['logic']) ?? null };
  };

  serve(app, 'listFormIntegrations', (c) => {
    const { form } = managed(c, 'listFormIntegrations', false);
    return json(200, ctx.store.integrationsOf(form.id).map(present));
  });

  serve(app, 'createFormIntegration', async (c) => {
    const { form } = managed(c, 'createFormIntegration', false);
    const input = await integrationInput(c, 'createFormIntegration');
    const created = ctx.store.addIntegration(form.id, input, ctx.now());
    return json(200, { type: 'success', message: 'Form Integration was created.', form_integration: present(created) });
  });

  serve(app, 'updateFormIntegration', async (c) => {
    const { integration } = managed(c, 'updateFormIntegration', true);
    const input = await integrationInput(c, 'updateFormIntegration');
    // Deleted while the body was read: nothing left to update.
    if (ctx.store.integrations.get(integration!.id) !== integration) throw notFound('Integration\\FormIntegration', integration!.id);
    // An update replaces the configuration wholesale (an omitted secret is removed).
    Object.assign(integration!, input, { updatedAt: ctx.now() });
    return json(200, { type: 'success', message: 'Form Integration was updated.', form_integration: present(integration!) });
  });

  serve(app, 'deleteFormIntegration', (c) => {
    const { integration } = managed(c, 'deleteFormIntegration', true);
    ctx.store.integrations.delete(integration!.id);
    return json(200, { type: 'success', message: 'Form Integration was deleted.' });
  });

  serve(app, 'listIntegrationEvents', (c) => {
    const { integration } = managed(c, 'listIntegrationEvents', true);
    return json(200, ctx.store.eventsOf(integration!.id).map(webhookEvent));
  });
}
