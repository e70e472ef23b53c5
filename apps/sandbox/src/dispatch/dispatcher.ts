// Delivers submission.created to every active webhook integration of a form, for the saves the
// rules name: one POST each, the exact signed bytes, custom headers, a timeout, one attempt, and
// nothing sent when the integration's logic does not match. Records the outcomes the rules record.
import { sign } from '@forms-api/webhook-verify';
import type { DeliveryOutcome, Form, Integration, Submission } from '../model.js';
import type { SubmissionSave, WebhookRules } from '../rules.js';
import type { SandboxStore } from '../store/store.js';
import { shareUrl } from '../presenters.js';
import { logicMet } from './logic.js';
import { serialiseLikeTheService, submissionCreatedPayload } from './payload.js';
import type { Transport } from './transport.js';

export interface DispatcherOptions {
  store: SandboxStore;
  transport: Transport;
  rules: WebhookRules;
  /** The signed URL of a stored file, as webhook payloads carry it. */
  fileUrl: (formId: number, name: string) => string;
  now: () => number;
  log: (line: string) => void;
}

function describe(outcome: DeliveryOutcome): string {
  switch (outcome.kind) {
    case 'answered':
      return `answered ${outcome.status}`;
    case 'refused':
      return `refused (${outcome.reason})`;
    case 'timeout':
      return `timed out after ${outcome.afterMs} ms`;
    case 'unreachable':
      return `unreachable (${outcome.message})`;
    case 'skipped':
      return 'skipped (its logic does not match)';
  }
}

export function createDispatcher(options: DispatcherOptions) {
  const { store, transport, rules, log } = options;
  /** Deliveries queued and not yet recorded (the queued rule): drain() waits for them. */
  const queued = new Set<Promise<void>>();
  return {
    /**
     * Sends to every active webhook of the form when the rules say this save fires. Resolves once
     * every attempt is recorded, or, when the rules queue deliveries, at once: the payload is made
     * now, from the submission as saved, and sent after the caller's answer.
     */
    async submissionSaved(form: Form, submission: Submission, save: SubmissionSave): Promise<void> {
      if (!rules.firedBy.includes(save)) return;
      const targets = store.integrationsOf(form.id).filter((i) => i.status === 'active');
      if (targets.length === 0) return;
      const answers = structuredClone(submission.answers);
      const editable =
        rules.payloadExtras && form.editableSubmissions && store.workspaces.get(form.workspaceId)?.plan === 'pro';
      const extras = rules.payloadExtras
        ? {
            ...(editable ? { editLink: `${shareUrl(form)}?submission_id=${submission.publicId}` } : {}),
            ...(submission.meta?.attribution ? { attribution: submission.meta.attribution } : {}),
          }
        : {};
      const body = serialiseLikeTheService(
        submissionCreatedPayload(
          form,
          submission,
          (name) => options.fileUrl(form.id, name),
          extras,
          rules.emptyAnswersAs,
        ),
      );
      const deliver = () => deliverAll(targets, answers, body, save);
      if (!rules.queued) return deliver();
      const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(deliver)
        .finally(() => queued.delete(job));
      queued.add(job);
    },
    /** Resolves once every queued delivery is recorded. */
    async drain(): Promise<void> {
      while (queued.size > 0) await Promise.allSettled([...queued]);
    },
  };

  async function deliverAll(
    targets: Integration[],
    answers: Submission['answers'],
    body: string,
    save: SubmissionSave,
  ): Promise<void> {
    await Promise.all(
      targets.map(async (integration) => {
        const url = integration.data.webhook_url;
        let outcome: DeliveryOutcome = { kind: 'skipped' };
        if (logicMet(integration.logic, answers)) {
          const headers: Record<string, string> = {
            ...(integration.data.webhook_headers ?? {}),
            'content-type': 'application/json',
            'user-agent': rules.userAgent,
          };
          if (integration.data.webhook_secret)
            headers['x-webhook-signature'] = await sign(integration.data.webhook_secret, body);
          // A request that cannot even be built (a seeded header Node refuses) is that delivery's
          // failure, recorded like any other, never the failure of the save that sent it.
          outcome = await transport.send({ url, headers, body }).catch((error: unknown) => ({
            kind: 'refused' as const,
            reason: error instanceof Error ? error.message : String(error),
          }));
        }
        log(`webhook #${integration.id} (${save}) -> ${describe(outcome)}`);
        if (rules.recorded(outcome)) store.recordEvent(integration.id, { url, outcome, createdAt: options.now() });
      }),
    );
  }
}
export type Dispatcher = ReturnType<typeof createDispatcher>;
