// The API over node:crypto: one instance shared by the Node build and the adapters that use it.
import { createWebhookApi } from '../core/api.js';
import { nodeBackend } from '../crypto/node.js';

export const nodeApi = createWebhookApi(nodeBackend);
