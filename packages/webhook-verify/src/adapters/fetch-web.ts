// The Fetch adapter over Web Crypto, for Workers, browsers and edge runtimes: the default of `/fetch`.
import { webApi } from '../builds/web.js';
import { createFetchAdapter } from './fetch.js';

export { rejectionResponse, type FetchWebhookOptions, type FetchWebhookResult } from './fetch.js';
export type { VerifiedWebhook } from '../core/request.js';
export const { verifyFetchRequest, verifyWebhookRequest, webhookHandler } = createFetchAdapter(webApi.createReceiver);
