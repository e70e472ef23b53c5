// Web build: HMAC with Web Crypto, for browsers, Workers, Deno, Bun and edge runtimes.
import { createWebhookApi } from './core/api.js';
import { webBackend } from './crypto/web.js';

export * from './exports.js';
export const { sign, verify, verifyOrThrow, parseWebhook, handleWebhook, createVerifier } = createWebhookApi(webBackend);
