// @forms-api/webhook-inbox: receive (createInbox + an adapter from /express, /fastify or /fetch),
// process (createInboxWorker), recover what never arrived (createReconciler), guard (RedisReplayStore) and shut down (closeOnSignals).
export { createInbox } from './inbox.js';
export type { EnqueueResult, Inbox, InboxHealth, InboxOptions } from './inbox.js';
export type { InboxRejection } from './rejection-log.js';
export { createInboxWorker } from './worker.js';
export type { InboxWorker, InboxWorkerOptions } from './worker.js';
export { RedisReplayStore } from './replay-store.js';
export type { RedisReplayStoreOptions } from './replay-store.js';
export { closeOnSignals } from './shutdown.js';
export { inboxMetrics } from './telemetry/metrics.js';
export type { CloseOnSignalsOptions, ShutdownSignal } from './shutdown.js';
export { InboxError, isInboxError, isUnavailable } from './errors.js';
export type { InboxErrorContext, InboxErrorKind } from './errors.js';
export { jobIdFor, submissionKeyFor } from './delivery.js';
export type { InboxDelivery, ReconciledDelivery, VerifiedDelivery, WebhookDelivery } from './delivery.js';
export {
  createReconciler,
  DEFAULT_GRACE_MS,
  DEFAULT_LOOKBACK_MS,
  DEFAULT_RECONCILE_INTERVAL_MS,
  DEFAULT_REQUEST_BUDGET,
} from './reconciler.js';
export type { ReconcileReport, ReconcileState, Reconciler, ReconcilerOptions } from './reconciler.js';
export type { NormalisedSubmission, SubmissionId, SubmissionPublicId } from '@forms-api/client/submissions';
export { copySubmissionFiles } from './file-copy.js';
export type { CopiedFileEntry, CopyFilesOptions, FileStore, FileToStore, SubmissionWithCopies } from './file-copy.js';
export type { InboxClusterConnection, InboxConnection, InboxRedisOptions } from './connection.js';
export { inboxQueuePrefix } from './queue-keys.js';
export type { RetentionPolicy, RetryPolicy } from './policy.js';
export { DEFAULT_DEDUPE_WINDOW_MS, DEFAULT_QUEUE } from './policy.js';
export type { SubmissionCreatedPayload } from '@forms-api/webhook-verify';
