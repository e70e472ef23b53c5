import { createServer } from 'node:http';
import { MemoryReplayStore, rejectionFor, type SubmissionCreatedPayload } from '@forms-api/webhook-verify';
import { verifyNodeRequest, writeRejection } from '@forms-api/webhook-verify/node';

const replayStore = new MemoryReplayStore();
const queue: SubmissionCreatedPayload[] = []; // your durable queue here

createServer(async (req, res) => {
  try {
    const { payload, release } = await verifyNodeRequest(req, {
      secret: process.env.FORMS_WEBHOOK_SECRET!,
      replayStore,
    });
    try {
      queue.push(payload);
    } catch (error) {
      await release(); // not accepted: the sender's retry must be processed
      throw error;
    }
    res.writeHead(202).end();
  } catch (error) {
    writeRejection(res, rejectionFor(error));
  }
}).listen(Number(process.env.PORT ?? 3000));
