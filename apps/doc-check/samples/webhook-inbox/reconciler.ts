import { createFormsClient } from '@forms-api/client';
import { closeOnSignals, createInboxWorker, createReconciler } from '@forms-api/webhook-inbox';

// The worker runs webhooks and recovered submissions alike: `submission` has one shape for both.
const worker = createInboxWorker({
  connection: process.env.REDIS_URL!,
  async handler({ submissionKey, submission, origin, firstOfSubmission }) {
    console.log(
      `${origin} ${submissionKey} (first: ${firstOfSubmission}): ${Object.keys(submission!.answers).length} answers`,
    );
  },
});

// Walks form 11 every minute, in whichever process running a reconciler is free, and queues each
// submission older than a minute that no webhook brought. The token needs to read its submissions.
const reconciler = await createReconciler({
  connection: process.env.REDIS_URL!,
  client: createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! }),
  forms: [11],
  // The defaults, named: every reconciler of the queue together makes at most 30 list requests a
  // minute (a share of the service's 100 per user), leaves the last minute to the webhooks, and
  // looks an hour behind its watermark for partial submissions completed later.
  intervalMs: 60_000,
  requestBudget: { requests: 30, windowMs: 60_000 },
  graceMs: 60_000,
  lookbackMs: 60 * 60_000,
});

closeOnSignals([reconciler, worker]);
