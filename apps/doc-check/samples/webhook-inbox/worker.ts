import { closeOnSignals, createInboxWorker } from '@forms-api/webhook-inbox';

const worker = createInboxWorker({
  connection: process.env.REDIS_URL!,
  // The receivers' secret: each job's stored bytes are verified again before the handler runs.
  secret: process.env.FORMS_WEBHOOK_SECRET!,
  concurrency: 4,
  async handler({ id, submissionKey, submission, origin, attempt }) {
    // `submissionKey` (form_id:submission_id) is the same for every delivery of this submission,
    // the re-sends after an update and a reconciled one included: the idempotency key of your
    // writes (upsert on it). `id` is this delivery's own id, for logs and the CLI (`show`, `retry`).
    // `submission` is one shape whether a webhook (`origin: 'webhook'`) or the reconciler brought it.
    console.log(
      `submission ${submission?.id} of form ${submission?.formId} (${id}, attempt ${attempt}) from ${origin}: upsert on ${submissionKey}`,
    );
    // Throw to fail this attempt: it is retried with backoff, then kept in the failed set.
  },
});

// On SIGTERM: fetch no new jobs, finish the ones in hand, disconnect, exit.
closeOnSignals([worker]);
