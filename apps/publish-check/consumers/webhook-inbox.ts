// A TypeScript user gets a typed delivery in the worker handler, typed errors, and the Fetch
// handler; a wrong error kind must not compile. (The root and /fetch entries need no @types/node.)
import {
  createInbox,
  createInboxWorker,
  InboxError,
  type InboxDelivery,
  type InboxErrorKind,
  type ReconcileState,
  type SubmissionCreatedPayload,
  type VerifiedDelivery,
} from '@forms-api/webhook-inbox';
import { inboxHandler, inboxHealthHandler } from '@forms-api/webhook-inbox/fetch';

const inbox = createInbox({
  connection: 'redis://127.0.0.1:6379',
  secret: 'whsec_1234567890ab',
  retry: { attempts: 5, backoffMs: 1_000 },
});
export const POST: (request: Request) => Promise<Response> = inboxHandler(inbox);
export const GET = inboxHealthHandler(inbox);

export const worker = createInboxWorker({
  connection: { host: '127.0.0.1', port: 6379 },
  concurrency: 4,
  dedupeWindowMs: 7 * 24 * 60 * 60 * 1000,
  async handler(delivery: InboxDelivery) {
    // A reconciled delivery has no webhook bytes: the handler narrows on `origin` to read them.
    if (delivery.origin === 'reconcile') {
      // @ts-expect-error a reconciled delivery carries no payload
      const none: SubmissionCreatedPayload = delivery.payload;
      const answers: number = Object.keys(delivery.submission.answers).length;
      return [none, answers, delivery.submission.key, delivery.firstOfSubmission];
    }
    const payload: SubmissionCreatedPayload = delivery.payload;
    const bytes: Uint8Array = delivery.rawBody;
    const signature: string | undefined = delivery.headers['x-webhook-signature'];
    return [
      payload.submission_id,
      bytes.byteLength,
      signature,
      delivery.submission?.key,
      delivery.attempt,
      delivery.maxAttempts,
      delivery.receivedAt.toISOString(),
    ];
  },
});

export function kindOf(error: unknown): InboxErrorKind | 'other' {
  if (!(error instanceof InboxError)) return 'other';
  // @ts-expect-error 'redis_down' is not a kind
  if (error.kind === 'redis_down') return 'other';
  return error.kind;
}

// How late the reconciler may be (null before its first walk), and a delivery handed to `enqueue`
// with the submission key an adapter decoded.
export const lagOf = (state: ReconcileState): number | null => state.lagMs;
export const byHand: VerifiedDelivery = {
  rawBody: new Uint8Array(),
  signature: 'sha256=00',
  headers: {},
  submissionKey: '11:1',
};
export const mismatch: InboxErrorKind = 'budget_mismatch';
