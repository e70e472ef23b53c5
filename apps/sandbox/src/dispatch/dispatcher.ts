// Delivers submission.created to every active webhook integration of a form: one POST each, the
// exact signed bytes, custom headers, a timeout, one attempt; records each outcome as an event.
import type { SandboxFault } from '../faults.js';
import type { Form, Integration, Submission } from '../model.js';
import type { SandboxStore } from '../store/store.js';
import { serialiseLikeTheService, submissionCreatedPayload } from './payload.js';
import { sign } from './sign.js';
import { webhookUrlProblem } from './ssrf.js';

export interface DispatcherOptions {
  store: SandboxStore;
  timeoutMs: number;
  allowPrivateWebhooks: boolean;
  faults: ReadonlySet<SandboxFault>;
  now: () => number;
  log: (line: string) => void;
}

export function createDispatcher(options: DispatcherOptions) {
  const { store, faults, log } = options;

  async function deliver(integration: Integration, body: string): Promise<void> {
    const record = (status: 'success' | 'failed' | 'timeout', responseCode: number | null, errorMessage: string | null) => {
      log(`webhook #${integration.id} -> ${status}${responseCode ? ` ${responseCode}` : ''}${errorMessage ? ` (${errorMessage})` : ''}`);
      if (!faults.has('missing-event')) store.recordEvent(integration.id, { status, responseCode, errorMessage, createdAt: options.now() });
    };
    const problem = await webhookUrlProblem(integration.data.webhook_url, options.allowPrivateWebhooks);
    if (problem) return record('failed', null, problem);
    const headers: Record<string, string> = { ...(integration.data.webhook_headers ?? {}), 'content-type': 'application/json', 'user-agent': 'forms-api-kit-sandbox' };
    const secret = integration.data.webhook_secret;
    if (secret) headers['x-webhook-signature'] = await sign(faults.has('bad-signature') ? `${secret}-wrong` : secret, body);
    try {
      const response = await fetch(integration.data.webhook_url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await response.text().catch(() => '');
      // Like the service: 2xx and 3xx count as delivered; 4xx and 5xx as failed.
      if (response.status < 400) record('success', response.status, null);
      else record('failed', response.status, `HTTP request returned status code ${response.status}${text ? `: ${text.slice(0, 120)}` : ''}`);
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') record('timeout', null, `The receiver did not answer within ${options.timeoutMs} ms.`);
      else record('failed', null, `${(error as Error).message}${(error as { cause?: Error }).cause ? `: ${(error as { cause: Error }).cause.message}` : ''}`);
    }
  }

  return {
    /** Sends to every active webhook of the form; resolves once every attempt is recorded. */
    async submissionCreated(form: Form, submission: Submission, fileUrl: (name: string) => string): Promise<void> {
      const targets = store.integrationsOf(form.id).filter((i) => i.status === 'active');
      if (targets.length === 0) return;
      const body = serialiseLikeTheService(submissionCreatedPayload(form, submission, fileUrl));
      await Promise.all(targets.map((integration) => deliver(integration, body)));
    },
  };
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
