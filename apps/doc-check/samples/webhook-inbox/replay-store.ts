import { parseWebhook } from '@forms-api/webhook-verify';
import { RedisReplayStore } from '@forms-api/webhook-inbox';

const replayStore = new RedisReplayStore({ connection: process.env.REDIS_URL! });
export const receive = (rawBody: Uint8Array, signature: string | null) =>
  parseWebhook(process.env.FORMS_WEBHOOK_SECRET!, rawBody, signature, { replayStore }); // throws `replayed` for a copy
