// The API over Web Crypto: one instance shared by the Web build and the adapters that use it.
import { createWebhookApi } from '../core/api.js';
import { webBackend } from '../crypto/web.js';

export const webApi = createWebhookApi(webBackend);
