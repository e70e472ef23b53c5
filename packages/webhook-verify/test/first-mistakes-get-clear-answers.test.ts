// What a user meets first: a body another middleware already read, `validate: true`,
// express.text() in front of the middleware, and a Fastify route wrapped in webhookRoute outside the
// plugin's scope each get a clear answer (or just work).
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createWebhookListener, webhookMiddleware } from '../src/adapters/node.js';
import { webhookMiddleware as expressWebhook } from '../src/adapters/express.js';
import { webhookPreHandler, webhookRoute, webhookVerify } from '../src/adapters/fastify.js';
import * as fetchNode from '../src/adapters/fetch-node.js';
import * as fetchWeb from '../src/adapters/fetch-web.js';
import { WebhookVerifyError, createVerifier, parseWebhook } from '../src/node.js';
import { BODY, SECRET, SIGNATURE, listen, post } from './http-helpers.js';

const signedRequest = () =>
  new Request('http://127.0.0.1/hook', {
    method: 'POST',
    body: BODY,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': SIGNATURE },
  });

describe.each([
  ['node:crypto', fetchNode],
  ['Web Crypto', fetchWeb],
])('fetch adapter (%s build) given a Request whose body was already read', (_build, adapter) => {
  it.each([
    ['read with request.json()', async (r: Request) => void (await r.json())],
    ['locked by a reader', async (r: Request) => void r.body!.getReader()],
  ])('%s: throws a WebhookVerifyError that says how to fix it, not a raw TypeError', async (_label, consume) => {
    const request = signedRequest();
    await consume(request);
    for (const call of [
      () => adapter.verifyWebhookRequest(request, { secret: SECRET }),
      () => adapter.verifyFetchRequest(request, { secret: SECRET }),
      () => adapter.webhookHandler({ secret: SECRET }, () => new Response())(request),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookVerifyError);
      expect((error as WebhookVerifyError).kind).toBe('invalid_body');
      expect((error as Error).message).toMatch(/c\.req\.json\(\)/);
    }
  });

  it('in Hono, after a middleware ran `await c.req.json()`, the error that reaches onError is the WebhookVerifyError', async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      await c.req.json(); // e.g. a logging middleware
      await next();
    });
    app.post('/hook', (c) =>
      adapter.webhookHandler({ secret: SECRET }, () => new Response(null, { status: 204 }))(c.req.raw),
    );
    app.onError((error, c) => c.json({ name: error.name, message: error.message }, 500));
    const response = await app.request(signedRequest());
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      name: 'WebhookVerifyError',
      message: expect.stringMatching(/already read/),
    });
  });
});

describe('`validate: true` instead of a validator function', () => {
  const options = { secret: SECRET, validate: true as never };
  it('is refused with a WebhookVerifyError naming createPayloadValidator, where the options are given', async () => {
    const attempts: Array<() => unknown> = [
      () => createVerifier(options),
      () => webhookMiddleware(options),
      () => createWebhookListener(options, () => {}),
      () => webhookPreHandler(options),
      () => fetchNode.webhookHandler(options, () => new Response()),
      () => fetchWeb.webhookHandler(options, () => new Response()),
    ];
    for (const attempt of attempts) {
      expect(attempt).toThrow(WebhookVerifyError);
      expect(attempt).toThrow(/createPayloadValidator/);
    }
    await expect(parseWebhook(SECRET, BODY, SIGNATURE, options)).rejects.toMatchObject({
      name: 'WebhookVerifyError',
      kind: 'invalid_option',
    });
  });
});

describe('express.text({ type: "application/json" }) in front of the middleware', () => {
  it('is accepted: the string body is the raw body', async () => {
    const app = express();
    app.post(
      '/',
      express.text({ type: 'application/json' }),
      expressWebhook({ secret: SECRET }, (req, res) => {
        res.json({ title: req.webhook.form_title, raw: req.rawBody.length });
      }),
    );
    const target = await listen(createServer(app));
    try {
      const response = await post(target.url, BODY, { 'x-webhook-signature': SIGNATURE });
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({ title: 'Contact Form', raw: Buffer.byteLength(BODY) });
    } finally {
      await target.close();
    }
  });
});

describe("a Fastify route wrapped in webhookRoute outside the webhookVerify plugin's scope", () => {
  it('is answered 500 with the fix, and its handler never sees an undefined payload', async () => {
    const app = Fastify();
    const seen: unknown[] = [];
    await app.register(async (scope) => {
      await scope.register(webhookVerify, { secret: SECRET });
      scope.post(
        '/inside',
        webhookRoute(async (request) => ({ title: request.webhook.form_title })),
      );
    });
    app.post(
      '/outside',
      webhookRoute(async (request) => {
        seen.push(request.webhook);
        return {};
      }),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const inside = await post(`${url}/inside`, BODY, { 'x-webhook-signature': SIGNATURE });
      expect(inside.status).toBe(200);
      expect(inside.json()).toEqual({ title: 'Contact Form' });
      const outside = await post(`${url}/outside?token=do-not-echo`, BODY, { 'x-webhook-signature': SIGNATURE });
      expect(outside.status).toBe(500);
      expect(outside.json().message).toMatch(
        /route POST \/outside is wrapped in webhookRoute but the webhookVerify plugin did not verify its request: register the plugin in the scope/,
      );
      expect(outside.text).not.toContain('do-not-echo');
      expect(seen).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
