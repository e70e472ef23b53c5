// A Node user of the /node entry (node:http): a verified request's payload, raw body and signature,
// and the listener that hands its handler a verified IncomingMessage.
import { createServer } from 'node:http';
import { MemoryReplayStore, rejectionFor, type ReplayStore } from '@forms-api/webhook-verify';
import { createWebhookListener, verifyNodeRequest, writeRejection } from '@forms-api/webhook-verify/node';

const secret = 'whsec_1234567890ab';
const replayStore: ReplayStore = new MemoryReplayStore();

export const server = createServer(async (req, res) => {
  try {
    const { payload, rawBody, signature, release } = await verifyNodeRequest(req, {
      secret,
      replayStore,
      maxBodyBytes: 65536,
    });
    if (payload.form_id < 0) await release();
    res.end(`${rawBody.length} ${signature}`);
  } catch (error) {
    writeRejection(res, rejectionFor(error));
  }
});

export const listener = createWebhookListener({ secret }, (payload, req, res) => {
  res.end(`${payload.form_title} ${req.webhook.submission_id} ${req.rawBody.length}`);
});
