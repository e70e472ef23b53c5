// Sets up what a webhook check needs: a local receiver and an active integration pointing at it
// (with a secret and a custom header), both removed when the check ends.
import { randomBytes } from 'node:crypto';
import type { CheckContext } from '../check-context.js';
import { createTemporaryIntegration, integrationBody, newSecret } from '../suites/helpers.js';
import { envVariableOf } from '../targets/settings.js';
import type { WebhookReceiver } from './receiver.js';

export interface WebhookSetup {
  readonly receiver: WebhookReceiver;
  readonly integrationId: number;
  readonly secret: string;
  readonly header: { name: string; value: string };
}

/**
 * `logic`: the integration's conditions (none by default: every submission is sent); `formId`:
 * the form to hook (default the target's).
 */
export async function setUpWebhook(
  ctx: CheckContext,
  options: { logic?: Record<string, unknown>; formId?: number } = {},
): Promise<WebhookSetup> {
  const reach = ctx.target.webhooks;
  if (!reach)
    return ctx.skip(`the tenant cannot reach a receiver of the suite (set ${envVariableOf('webhookReceiverUrl')})`);
  // The target's one receiver; this webhook's deliveries come to a path of its own, so a late
  // delivery of an earlier check's integration is never taken for this one's.
  const shared = await reach.receiver();
  const path = `/webhook/${randomBytes(6).toString('hex')}`;
  const receiver = shared.at(path);
  const secret = newSecret(ctx);
  const header = { name: 'X-Contract-Test', value: randomBytes(6).toString('hex') };
  const { id } = await createTemporaryIntegration(
    ctx,
    {
      ...integrationBody({
        status: 'active',
        webhook_url: reach.receiverUrl(shared.port, path),
        webhook_secret: secret,
        webhook_headers: { [header.name]: header.value },
      }),
      ...(options.logic ? { logic: options.logic } : {}),
    },
    options.formId,
  );
  return { receiver, integrationId: id, secret, header };
}
