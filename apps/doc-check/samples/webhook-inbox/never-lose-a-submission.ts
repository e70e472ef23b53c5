import express from 'express';
import { createFormsClient } from '@forms-api/client';
import { closeOnSignals, createInbox, createInboxWorker, createReconciler } from '@forms-api/webhook-inbox';
import { closeHttpServer, inboxHealthMiddleware, inboxMiddleware } from '@forms-api/webhook-inbox/express';

const redis = process.env.REDIS_URL!; // redis://host:6379, with appendonly on (section 1)
const secret = process.env.FORMS_WEBHOOK_SECRET!; // the integration's webhook_secret

// Receive: verify the signature, store the delivery in Redis, answer 202. Nothing else.
const inbox = createInbox({ connection: redis, secret });
const app = express();
// Mount it before any express.json(): the signature covers the raw bytes.
app.post('/webhooks/forms', inboxMiddleware(inbox));
app.get('/healthz', inboxHealthMiddleware(inbox));
const server = app.listen(Number(process.env.PORT ?? 3000));

// Recover: every minute, walk form 11's list and queue each submission older than a minute that
// no webhook brought. The token needs to read the form's submissions.
const reconciler = await createReconciler({
  connection: redis,
  client: createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! }),
  forms: [11],
});

// A stand-in for your database: one row per submission, keyed by `submissionKey`.
const rows = new Map<string, { values: 'formatted' | 'stored'; answers: unknown }>();

// Process: webhooks and recovered submissions run this one handler, each submission once.
const worker = createInboxWorker({
  connection: redis,
  secret, // each stored webhook is verified again before the handler runs
  async handler({ id, submissionKey, submission, origin, firstOfSubmission }) {
    // The service's deliveries always name their submission; one that does not ends in the failed set.
    if (submissionKey === null || submission === null) throw new Error(`delivery ${id} names no submission`);
    // An upsert: a second run of the same submission (a re-send after an update, a run again after
    // a worker died) replaces the row instead of adding one.
    rows.set(submissionKey, { values: submission.values, answers: submission.answers });
    console.log(`${origin} ${submissionKey} (first: ${firstOfSubmission}): ${rows.size} rows`);
  },
});

// On SIGTERM: stop accepting, finish what is in hand, close Redis, exit.
closeOnSignals([() => closeHttpServer(server), inbox, reconciler, worker]);
