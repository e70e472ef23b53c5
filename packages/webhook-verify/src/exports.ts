// What both builds export besides the crypto-bound functions.
export { WebhookUsageError, WebhookVerificationError } from './core/errors.js';
export type { WebhookUsageCode, WebhookVerificationReason } from './core/errors.js';
export { SIGNATURE_HEADER, parseSignatureHeader } from './core/header.js';
export type { ParsedSignature } from './core/header.js';
export type { RawBody } from './core/body.js';
export type { ParseOptions, PayloadValidator, ReleaseClaim, Verifier } from './core/api.js';
export { MemoryReplayStore } from './replay.js';
export type { MemoryReplayStoreOptions, ReplayStore } from './replay.js';
export type { SubmissionCreatedPayload } from '@forms-api/types';
