// Webhook integrations of a form and their dispatch events.
import type { Context, Hono } from 'hono';
import {
  authorise,
  caller,
  formOr404,
  jsonBody,
  pathId,
  runChecks,
  validateBody,
  type SandboxContext,
} from '../context.js';
import { logicProblems } from '../dispatch/logic.js';
import { webhookHeadersProblem } from '../dispatch/webhook-headers.js';
import { checkWebhookUrl } from '../dispatch/webhook-url.js';
import { HttpError, json, notFound, validationFailed } from '../http.js';
import type { Form, Integration } from '../model.js';
import { serve, type OperationId } from '../operations.js';

type IntegrationInput = Pick<Integration, 'status' | 'data' | 'logic'>;

/** Said after a refused receiver URL: a local receiver (http, loopback, private network) needs the sandbox's switch. */
const PRIVATE_RECEIVER_HINT =
  'For a local receiver (http://127.0.0.1:…, a private address), start the sandbox with --allow-private-webhooks (startSandbox({ allowPrivateWebhooks: true })).';

export function integrationRoutes(app: Hono, ctx: SandboxContext): void {
  const specBlocked = ctx.bundle.components.schemas.WebhookHeaders!['x-blocked-header-names'] as string[];
  const blockedHeaders = new Set(ctx.rules.integrations.blockedHeaders(specBlocked).map((h) => h.toLowerCase()));
  const present = (i: Integration) => ctx.rules.present.integration(i);

  /** The integration the path names, within the form (another form's is 404 too). */
  const integrationOr404 = (c: Context, form: Form): Integration => {
    const named = pathId(ctx.rules.ids.integer(c.req.param('integrationid')!), 'Integration\\FormIntegration', 0);
    const id = 'id' in named ? named.id : 0;
    const found = ctx.store.integrations.get(id);
    if (!found || found.formId !== form.id) throw notFound('Integration\\FormIntegration', id);
    return found;
  };

  /**
   * The body of a create or update: a kind the service does not know fails before any validation
   * (500, as the service's request class throws), then the spec's schema plus what the service
   * checks beyond it (blocked headers, URL safety), in one 422.
   */
  const integrationInput = async (c: Context, operationId: OperationId): Promise<IntegrationInput> => {
    const body = await jsonBody(c, ctx.rules.notAnObjectBody);
    const kind = body.integration_id;
    if (typeof kind !== 'string' || !ctx.rules.integrations.knownKinds.includes(kind))
      throw new HttpError(500, { message: 'Server Error' });
    if (kind !== 'webhook')
      throw validationFailed(
        'integration_id',
        `The sandbox serves webhook integrations only (got ${kind}); send integration_id: webhook.`,
      );
    // What else the spec says the service fails on rather than refusing (a logic tree its rule cannot walk).
    if (ctx.validator.failsTheService(operationId, body)) throw new HttpError(500, { message: 'Server Error' });
    await validateBody(ctx, body, operationId, {
      accept: (error, sent) =>
        // The headers' entries are judged below, in the service's words, instead of the schema's.
        (error.instancePath.startsWith('/data/webhook_headers') &&
          !(error.instancePath === '/data/webhook_headers' && error.keyword === 'type')) ||
        // With private webhooks allowed, plain http receivers are fine although the spec asks for https.
        (ctx.webhookUrls.allowPrivate &&
          error.keyword === 'pattern' &&
          error.instancePath === '/data/webhook_url' &&
          /^http:\/\//i.test(String(sent.data?.webhook_url))),
      more: async (sent, errors) => {
        const headers = sent.data?.webhook_headers;
        const headersProblem =
          headers && typeof headers === 'object' && !Array.isArray(headers)
            ? webhookHeadersProblem(headers, blockedHeaders)
            : undefined;
        if (headersProblem) errors.add('data.webhook_headers', headersProblem);
        const logic = logicProblems(sent.logic);
        if (logic.length > 0)
          errors.add('logic', `The logic conditions are not complete. Error detail(s): ${logic.join(', ')}`);
        if (typeof sent.data?.webhook_url === 'string') {
          const destination = await checkWebhookUrl(sent.data.webhook_url, ctx.webhookUrls);
          if (!destination.ok)
            errors.add(
              'data.webhook_url',
              ctx.webhookUrls.allowPrivate || !/HTTPS|public IP/.test(destination.error)
                ? destination.error
                : `${destination.error} ${PRIVATE_RECEIVER_HINT}`,
            );
        }
      },
    });
    // The configuration is replaced wholesale: what is not sent is not kept.
    const data: Integration['data'] = { webhook_url: body.data.webhook_url };
    if (body.data.webhook_secret) data.webhook_secret = body.data.webhook_secret;
    if (body.data.webhook_headers && typeof body.data.webhook_headers === 'object')
      data.webhook_headers = body.data.webhook_headers;
    return { status: body.status as Integration['status'], data, logic: (body.logic as Integration['logic']) ?? null };
  };

  serve(app, 'listFormIntegrations', (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('form')!);
    authorise(ctx, who, form.workspaceId, 'listFormIntegrations', { editor: true });
    return json(200, ctx.store.integrationsOf(form.id).map(present));
  });

  serve(app, 'createFormIntegration', async (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('form')!);
    let input: IntegrationInput | undefined;
    await runChecks(ctx, 'createFormIntegration', {
      permission: () => authorise(ctx, who, form.workspaceId, 'createFormIntegration', { editor: true }),
      input: async () => void (input = await integrationInput(c, 'createFormIntegration')),
    });
    const created = ctx.store.addIntegration(form.id, input!, ctx.now());
    return json(200, { type: 'success', message: 'Form Integration was created.', form_integration: present(created) });
  });

  serve(app, 'updateFormIntegration', async (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('form')!);
    let input: IntegrationInput | undefined;
    await runChecks(ctx, 'updateFormIntegration', {
      integration: () => void integrationOr404(c, form),
      permission: () => authorise(ctx, who, form.workspaceId, 'updateFormIntegration', { editor: true }),
      input: async () => void (input = await integrationInput(c, 'updateFormIntegration')),
    });
    // Looked up again after the body was read: deleted meanwhile is 404.
    const integration = integrationOr404(c, form);
    Object.assign(integration, input, { updatedAt: ctx.now() });
    return json(200, {
      type: 'success',
      message: 'Form Integration was updated.',
      form_integration: present(integration),
    });
  });

  serve(app, 'deleteFormIntegration', async (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('form')!);
    await runChecks(ctx, 'deleteFormIntegration', {
      integration: () => void integrationOr404(c, form),
      permission: () => authorise(ctx, who, form.workspaceId, 'deleteFormIntegration', { editor: true }),
    });
    ctx.store.integrations.delete(integrationOr404(c, form).id);
    return json(200, { type: 'success', message: 'Form Integration was deleted.' });
  });

  serve(app, 'listIntegrationEvents', async (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('form')!);
    await runChecks(ctx, 'listIntegrationEvents', {
      integration: () => void integrationOr404(c, form),
      permission: () => authorise(ctx, who, form.workspaceId, 'listIntegrationEvents', { editor: true }),
    });
    const retention = ctx.rules.webhooks.eventRetentionMs;
    if (retention !== null) ctx.store.forgetEventsBefore(ctx.now() - retention);
    return json(
      200,
      ctx.store.eventsOf(integrationOr404(c, form).id).map((e) => ctx.rules.present.webhookEvent(e)),
    );
  });
}
