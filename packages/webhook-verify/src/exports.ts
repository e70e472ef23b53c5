// What both builds export besides the crypto-bound functions.
export { isWebhookVerifyError, WebhookVerifyError } from './core/errors.js';
export type {
  BodyReader,
  WebhookRequestKind,
  WebhookUsageKind,
  WebhookVerificationKind,
  WebhookVerifyErrorContext,
  WebhookVerifyErrorKind,
} from './core/errors.js';
export { SIGNATURE_HEADER, parseSignatureHeader } from './core/header.js';
export type { ParsedSignature } from './core/header.js';
export type { RawBody } from './core/body.js';
export type { ParseOptions, PayloadValidator, ReleaseClaim, Verifier } from './core/api.js';
export { rejectionBody, rejectionFor, rejectionHeaders } from './core/policy.js';
export type { AnswerOptions, DuplicatePolicy, Rejection, RejectionBody, RejectionReason } from './core/policy.js';
export { createRejectionLog, REJECTION_SUMMARY_WINDOW_MS } from './core/rejection-log.js';
export type { RejectionLog, RejectionLogOptions, RejectionReport } from './core/rejection-log.js';
export {
  createBodyBudget,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_PENDING_BODY_BYTES,
  SERVICE_WEBHOOK_TIMEOUT_MS,
} from './core/body-limits.js';
export type { BodyBudget, BodyLimitOptions } from './core/body-limits.js';
export type { VerifiedWebhook, WebhookRequestOptions } from './core/request.js';
export { MemoryReplayStore } from './replay.js';
export type { MemoryReplayStoreOptions, ReplayStore } from './replay.js';
export type { SubmissionCreatedPayload } from '@forms-api/types';
