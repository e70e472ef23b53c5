// Delivers submission.created to every active webhook integration of a form: one POST each, the
// exact signed bytes, custom headers, a timeout, one attempt; records each outcome as an event.
import { sign } from '@forms-api/webhook-verify';
import type { Form, Submission, WebhookEventRecord } from '../model.js';
import type { SandboxStore } from '../store/store.js';
import { serialiseLikeTheService, submissionCreatedPayload } from './payload.js';
import type { DeliveryOutcome, Transport } from './transport.js';

export interface DispatcherOptions {
  store: SandboxStore;
  transport: Transport;
  timeoutMs: number;
  now: () => number;
  log: (line: string) => void;
}

type EventFields = Pick<WebhookEventRecord, 'status' | 'responseCode' | 'errorMessage'>;

function eventOf(outcome: DeliveryOutcome, timeoutMs: number): EventFields {
  switch (outcome.kind) {
    // Like the service: 2xx and 3xx count as delivered; 4xx and 5xx as failed.
    case 'answered':
      return outcome.status < 400
        ? { status: 'success', responseCode: outcome.status, errorMessage: null }
        : { status: 'failed', responseCode: outcome.status, errorMessage: `HTTP request returned status code ${outcome.status}${outcome.excerpt ? `: ${outcome.excerpt.slice(0, 120)}` : ''}` };
    case 'refused':
      return { status: 'failed', responseCode: null, errorMessage: outcome.reason };
    case 'timeout':
      return { status: 'timeout', responseCode: null, errorMessage: `The receiver did not answer within ${timeoutMs} ms.` };
    case 'unreachable':
      return { status: 'failed', responseCode: null, errorMessage: `The receiver could not be reached: ${outcome.message}` };
  }
}

export function createDispatcher(options: DispatcherOptions) {
  const { store, transport, log } = options;
  return {
    /** Sends to every active webhook of the form; resolves once every attempt is recorded. */
    async submissionCreated(form: Form, submission: Submission, fileUrl: (name: string) => string): Promise<void> {
      const targets = store.integrationsOf(form.id).filter((i) => i.status === 'active');
      if (targets.length === 0) return;
      const body = serialiseLikeTheService(submissionCreatedPayload(form, submission, fileUrl));
      await Promise.all(
        targets.map(async (integration) => {
          const headers: Record<string, string> = { ...(integration.data.webhook_headers ?? {}), 'content-type': 'application/json', 'user-agent': 'forms-api-kit-sandbox' };
          if (integration.data.webhook_secret) headers['x-webhook-signature'] = await sign(integration.data.webhook_secret, body);
          const event = eventOf(await transport.send({ url: integration.data.webhook_url, headers, body }), options.timeoutMs);
          log(`webhook #${integration.id} -> ${event.status}${event.responseCode ? ` ${event.responseCode}` : ''}${event.errorMessage ? ` (${event.errorMessage})` : ''}`);
          store.recordEvent(integration.id, { ...event, createdAt: options.now() });
        }),
      );
    },
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
