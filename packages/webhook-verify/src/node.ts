// Node build: HMAC with node:crypto. Chosen by the "node" export condition.
import { createWebhookApi } from './core/api.js';
import { nodeBackend } from './crypto/node.js';

export * from './exports.js';
export const { sign, verify, verifyOrThrow, parseWebhook, handleWebhook, createVerifier } = createWebhookApi(nodeBackend);
