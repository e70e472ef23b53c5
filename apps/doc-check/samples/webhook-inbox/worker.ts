import { closeOnSignals, createInboxWorker } from '@forms-api/webhook-inbox';

const worker = createInboxWorker({
  connection: process.env.REDIS_URL!,
  concurrency: 4,
  async handler({ id, payload, attempt }) {
    // `id` is the same for every copy of a delivery: use it as the idempotency key of your writes.
    console.log(`submission ${payload.submission_id} of form ${payload.form_id} (${id}, attempt ${attempt})`);
    // Throw to fail this attempt: it is retried with backoff, then kept in the failed set.
  },
});

// On SIGTERM: fetch no new jobs, finish the ones in hand, disconnect, exit.
closeOnSignals([worker]);
