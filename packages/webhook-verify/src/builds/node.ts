// The API over node:crypto: one instance shared by the Node build and the adapters that use it.
// On Bun the same build hashes with Bun's native hasher, the fastest primitive there (measured).
import { createWebhookApi } from '../core/api.js';
import { bunBackend } from '../crypto/bun.js';
import { nodeBackend } from '../crypto/node.js';

export const nodeApi = createWebhookApi(bunBackend ?? nodeBackend);
