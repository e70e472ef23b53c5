// The service sends `submission.created` again for the same submission after every update through
// the API (ledger: update-submission-emits-webhook), with the current answers: other bytes, so
// another delivery and another delivery id. The handler must be given the key of the submission
// itself, the same across those deliveries, to make its writes idempotent per submission.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '@forms-api/webhook-verify';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { inboxMiddleware } from '../src/adapters/node.js';
import {
  createInbox,
  createInboxWorker,
  submissionKeyFor,
  type Inbox,
  type InboxDelivery,
  type InboxWorker,
} from '../src/index.js';
import { deliveryBody, eventually, postDelivery, SECRET } from './support/deliveries.js';

let redis: RedisServer;
let inbox: Inbox;
let worker: InboxWorker;
let server: Server;
let url: string;
const runs: InboxDelivery[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  inbox = createInbox({ connection: redis.url, secret: SECRET, queue: 'keys' });
  worker = createInboxWorker({ connection: redis.url, queue: 'keys', handler: (delivery) => void runs.push(delivery) });
  server = createServer(inboxMiddleware(inbox));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  await eventually('the inbox to connect', async () => (await inbox.health()).ok);
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await worker?.close();
  await inbox?.close();
  await redis?.close();
});

const signed = async (body: string) => ({ body, signature: await sign(SECRET, body) });

describe('the submission key', () => {
  it('is the same for the first delivery and the re-send after an update, while the delivery ids differ', async () => {
    const created = deliveryBody(4242);
    const updated = created.replace('"value":"Ada 4242 é/"', '"value":"Ada Lovelace"');
    expect(updated).not.toBe(created);
    const other = deliveryBody(4243);
    for (const body of [created, updated, other])
      expect((await postDelivery(url, await signed(body))).status).toBe(202);
    await eventually('three runs', () => runs.length === 3);

    const bySubmission = (id: number) => runs.filter((run) => run.payload.submission_id === id);
    const [first, resent] = bySubmission(4242);
    expect(first!.id).not.toBe(resent!.id);
    expect(first!.submissionKey).toBe('11:4242');
    expect(resent!.submissionKey).toBe('11:4242');
    expect(bySubmission(4243)[0]!.submissionKey).toBe('11:4243');
  });

  it('is null only when the payload lacks an id', () => {
    expect(submissionKeyFor({ form_id: 11, submission_id: 7 })).toBe('11:7');
    expect(submissionKeyFor({ form_id: 11 })).toBeNull();
    expect(submissionKeyFor({ submission_id: 7 })).toBeNull();
    expect(submissionKeyFor({ form_id: 11, submission_id: '' })).toBeNull();
  });
});
