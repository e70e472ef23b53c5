// A CI run lost one delivery of the contract suite's webhook round trip ("no submission.created
// request reached the receiver"). The sandbox sent webhooks through a keep-alive agent, and the
// suite's receiver, a plain node:http server, closes a connection after 5 s of idleness: a delivery
// written on a kept-alive socket as the receiver closes it is never read, and a webhook is sent once.
// The service opens a connection for each delivery (a new Laravel HTTP client per call,
// api/app/Integrations/Handlers/WebhookIntegration.php:140-145), so the sandbox does too.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listen } from '@forms-api/test-support';
import { afterEach, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, fieldIds, sandbox } from './support.js';

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** A receiver that drops a request coming on a connection it already answered on, unread, as a
 *  receiver whose idle timer fires as the request arrives does. */
async function receiverThatClosesIdleConnections() {
  const connections = new Set<Socket>();
  const answered = new WeakSet<Socket>();
  let received = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (answered.has(req.socket)) return void req.socket.destroy();
    answered.add(req.socket);
    req.resume().on('end', () => {
      received += 1;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.on('connection', (socket: Socket) => connections.add(socket));
  const { url, close } = await listen(server);
  return {
    url: `${url}/hook`,
    counts: () => ({ received, connections: connections.size }),
    close,
  };
}

it('sends each delivery on a connection of its own, so a receiver closing idle ones loses none', async () => {
  sb = await sandbox();
  const rx = await receiverThatClosesIdleConnections();
  try {
    const token = sb.tokens.all;
    const created = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
      token,
      body: { integration_id: 'webhook', status: 'active', data: { webhook_url: rx.url } },
    });
    expect(created.status).toBe(200);
    const id = created.body.form_integration.id as number;
    const fields = await fieldIds(sb, 11);
    for (const name of ['Ada', 'Grace', 'Edsger']) {
      const answer = { [fields.Name!]: name, [fields.Email!]: 'someone@example.com', [fields.Topic!]: 'Support' };
      expect((await call(sb.baseUrl, 'POST', '/forms/11/answer', { body: answer })).status).toBe(200);
    }
    const events = await call(sb.baseUrl, 'GET', `/open/forms/11/integrations/${id}/events`, { token });
    expect(events.body.map((e: { status: string }) => e.status)).toEqual(['success', 'success', 'success']);
    expect(rx.counts()).toEqual({ received: 3, connections: 3 });
  } finally {
    await rx.close();
  }
});
