// Each adapter, over real HTTP on 127.0.0.1 with the real framework, accepts signed requests,
// answers rejections with the shared status policy. (A body a JSON parser consumed first:
// express-json-first-is-answered-json-500-and-the-fix-told-once.test.ts.)
import express from 'express';
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookListener, webhookMiddleware } from '../src/adapters/node.js';
import { webhookRoute, webhookVerify } from '../src/adapters/fastify.js';
import * as fetchNode from '../src/adapters/fetch-node.js';
import * as fetchWeb from '../src/adapters/fetch-web.js';
import { createPayloadValidator } from '../src/validate.js';
import { POLICY_CASES, SECRET, SIGNATURE, listen, listenOn, post, postChunked } from './http-helpers.js';

type Target = { url: string; close: () => Promise<void> };
const accepted = (payload: { submission_id: number }) => ({ accepted: payload.submission_id });

const targets: Record<string, () => Promise<Target>> = {
  'node:http listener': () =>
    listenOn(
      createWebhookListener({ secret: SECRET, validate: createPayloadValidator() }, (payload, _req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(accepted(payload)));
      }),
    ),
  'express with its own raw body reading': async () => {
    const app = express();
    app.post('/', webhookMiddleware({ secret: SECRET }), (req, res) =>
      res.json(accepted((req as unknown as { webhook: { submission_id: number } }).webhook)),
    );
    return listen(createServer(app));
  },
  'express.raw() then the middleware': async () => {
    const app = express();
    app.post(
      '/',
      express.raw({ type: 'application/json', limit: '2mb' }),
      webhookMiddleware({ secret: SECRET }),
      (req, res) => res.json(accepted((req as unknown as { webhook: { submission_id: number } }).webhook)),
    );
    return listen(createServer(app));
  },
  fastify: async () => {
    const app = Fastify();
    await app.register(async (scope) => {
      await scope.register(webhookVerify, { secret: SECRET });
      scope.post(
        '/',
        webhookRoute(async (request) => accepted(request.webhook)),
      );
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
  },
  'fetch API, node:crypto build (Hono on @hono/node-server)': () => honoTarget(fetchNode.webhookHandler),
  'fetch API, Web Crypto build (Hono on @hono/node-server)': () => honoTarget(fetchWeb.webhookHandler),
};

async function honoTarget(webhookHandler: typeof fetchNode.webhookHandler): Promise<Target> {
  const app = new Hono();
  const handler = webhookHandler({ secret: SECRET }, (payload) => Response.json(accepted(payload)));
  app.post('/', (c) => handler(c.req.raw));
  return listen(createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }));
}

describe.each(Object.keys(targets))('%s', (name) => {
  let target: Target;
  beforeAll(async () => {
    target = await targets[name]!();
  });
  afterAll(() => target.close());

  it.each(POLICY_CASES.map(([label, request, status, reason]) => ({ label, request, status, reason })))(
    'answers $label with $status',
    async ({ request, status, reason }) => {
      const response = await post(target.url, request.body, request.headers);
      expect(response.status).toBe(status);
      if (status === 200) expect(response.json()).toEqual({ accepted: 456 });
      else expect(response.json().error).toBe(reason);
    },
  );

  it('answers 413 to a body over the limit, with the shared { error, message } body', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) });
    const response = await post(target.url, big, { 'x-webhook-signature': SIGNATURE });
    expect(response.status).toBe(413);
    expect(response.json()).toEqual({ error: 'body_too_large', message: expect.stringMatching(/maxBodyBytes/) });
  });

  // With express.raw() the body is read by express.raw, which enforces its own `limit`.
  it.skipIf(name.startsWith('express.raw'))(
    'answers 413 to a chunked body without Content-Length as soon as it passes the limit',
    async () => {
      // 4,096 chunks of 1 KiB = 4 MiB offered; the receiver must stop near 1 MiB and still answer.
      const response = await postChunked(target.url, 4096, 1024, { 'x-webhook-signature': SIGNATURE });
      expect(response.status).toBe(413);
      expect(response.json().error).toBe('body_too_large');
    },
  );
});

describe('fetch API adapter with a chunked body and no Content-Length', () => {
  it('answers 413 once the streamed body passes the limit', async () => {
    const handler = fetchWeb.webhookHandler({ secret: SECRET, maxBodyBytes: 1024 }, () => new Response('ok'));
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 1000) return controller.close();
        controller.enqueue(new Uint8Array(512).fill(0x20));
      },
    });
    const request = new Request('http://127.0.0.1/hook', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': SIGNATURE },
      duplex: 'half',
    } as RequestInit);
    const response = await handler(request);
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(10); // stopped reading early instead of buffering 512 KB
  });
});
