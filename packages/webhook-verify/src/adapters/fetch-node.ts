// The Fetch adapter over node:crypto, for Node, Bun and Deno: the "node" condition of `/fetch`.
import { nodeApi } from '../builds/node.js';
import { createFetchAdapter } from './fetch.js';

export { rejectionResponse, type FetchWebhookOptions, type FetchWebhookResult } from './fetch.js';
export type { VerifiedWebhook } from '../core/request.js';
export const { verifyFetchRequest, verifyWebhookRequest, webhookHandler } = createFetchAdapter(nodeApi.createReceiver);
