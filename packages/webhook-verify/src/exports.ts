// What both builds export besides the crypto-bound functions.
export { WebhookRequestError, WebhookUsageError, WebhookVerificationError } from './core/errors.js';
export type { WebhookRequestReason, WebhookUsageCode, WebhookVerificationReason } from './core/errors.js';
export { SIGNATURE_HEADER, parseSignatureHeader } from './core/header.js';
export type { ParsedSignature } from './core/header.js';
export type { RawBody } from './core/body.js';
export type { ParseOptions, PayloadValidator, ReleaseClaim, Verifier } from './core/api.js';
export { rejectionBody, rejectionFor } from './core/policy.js';
export type { Rejection, RejectionBody, RejectionReason } from './core/policy.js';
export { DEFAULT_MAX_BODY_BYTES } from './core/request.js';
export type { VerifiedWebhook, WebhookRequestOptions } from './core/request.js';
export { MemoryReplayStore } from './replay.js';
export type { MemoryReplayStoreOptions, ReplayStore } from './replay.js';
export type { SubmissionCreatedPayload } from '@forms-api/types';
