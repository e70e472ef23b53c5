// Web build (Web Crypto), for Workers, browsers and edge runtimes: the default export condition.
import { webApi } from './builds/web.js';

export * from './exports.js';
export const { sign, verify, verifyOrThrow, parseWebhook, handleWebhook, createVerifier } = webApi;
