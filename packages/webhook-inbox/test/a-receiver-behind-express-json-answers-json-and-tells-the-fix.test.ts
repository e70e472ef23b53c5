// Issue 30, item 17, for the inbox's own Express route: behind `express.json()` the body is gone
// before the inbox can verify it. The service must get a JSON 500 that names the fix (it stores
// the answer in its event log), never Express's HTML page with a stack trace and file paths, and
// the developer is told the fix on the log once, not once per delivery.
import { createServer, type Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { listen, until } from '@forms-api/test-support';
import { inboxMiddleware } from '../src/adapters/node.js';
import { createInbox, type Inbox } from '../src/index.js';
import { SECRET, signedDelivery } from './support/deliveries.js';

let redis: RedisServer;
let inbox: Inbox;
let server: Server;
let url: string;
const told: string[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  inbox = createInbox({
    connection: redis.url,
    secret: SECRET,
    queue: 'behind-json',
    onRejected: (rejection) => told.push(`${rejection.status} ${rejection.reason}: ${rejection.message}`),
  });
  await until('the inbox to connect', async () => (await inbox.health()).ok);
  const app = express();
  app.use(express.json());
  app.post('/webhooks/forms', inboxMiddleware(inbox));
  server = createServer(app);
  url = `${(await listen(server)).url}/webhooks/forms`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await inbox.close();
  await redis.stop();
});

it('answers the service JSON 500 with the fix, no HTML and no path, and tells the fix', async () => {
  for (const n of [1, 2]) {
    const delivery = await signedDelivery(7_000 + n);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': delivery.signature },
      body: delivery.body,
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(text).not.toMatch(/<html|<pre|node_modules|\/work\/|\.ts:\d/i);
    const body = JSON.parse(text) as { error: string; message: string };
    expect(body.error).toBe('invalid_body');
    expect(body.message).toMatch(/express\.json|express\.raw/);
  }
  expect(told).toHaveLength(2);
  expect(told[0]).toMatch(/^500 invalid_body: .*express/);
});
