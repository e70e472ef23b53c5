// With a replay store, every adapter claims a delivery only once it is verified, and gives the
// claim back when the receiver's handler fails, so the sender's retry is processed; a delivery
// answered 2xx stays claimed, and its duplicate is acknowledged 200 without running the handler
// (the service never retries and records any non-2xx as an error event), or refused 409 with
// `onDuplicate: 'reject'` (issue 22 bug 7).
import express from 'express';
import { createServer } from 'node:http';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { until } from '@forms-api/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookListener, webhookMiddleware } from '../src/adapters/node.js';
import { webhookVerify } from '../src/adapters/fastify.js';
import * as fetchNode from '../src/adapters/fetch-node.js';
import * as fetchWeb from '../src/adapters/fetch-web.js';
import { MemoryReplayStore, type DuplicatePolicy } from '../src/node.js';
import { BODY, SECRET, SIGNATURE, listen, listenOn, post } from './http-helpers.js';

type Target = { url: string; close: () => Promise<void> };
/** The handler fails on the first delivery (as a database outage would), then succeeds. */
type Behaviour = { failuresLeft: number; processed: number };

const receivers: Record<
  string,
  (store: MemoryReplayStore, b: Behaviour, onDuplicate?: DuplicatePolicy) => Promise<Target>
> = {
  'node:http listener (handler throws synchronously)': (replayStore, b, onDuplicate) =>
    listenOn(
      createWebhookListener({ secret: SECRET, replayStore, onDuplicate }, (_payload, _req, res) => {
        if (b.failuresLeft-- > 0) throw new Error('database down');
        b.processed++;
        res.writeHead(204).end();
      }),
    ),
  'express (handler passes an error to next)': async (replayStore, b, onDuplicate) => {
    const app = express();
    app.post('/', webhookMiddleware({ secret: SECRET, replayStore, onDuplicate }), (_req, res, next) => {
      if (b.failuresLeft-- > 0) return next(new Error('database down'));
      b.processed++;
      res.sendStatus(204);
    });
    app.use(
      (_error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
        void res.status(500).end(),
    );
    return listen(createServer(app));
  },
  'fastify (handler rejects)': async (replayStore, b, onDuplicate) => {
    const app = Fastify();
    await app.register(async (scope) => {
      await scope.register(webhookVerify, { secret: SECRET, replayStore, onDuplicate });
      scope.post('/', async (_request, reply) => {
        if (b.failuresLeft-- > 0) throw new Error('database down');
        b.processed++;
        return reply.code(204).send();
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
  },
  ...Object.fromEntries(
    (
      [
        ['node:crypto', fetchNode.webhookHandler],
        ['Web Crypto', fetchWeb.webhookHandler],
      ] as const
    ).map(([build, webhookHandler]) => [
      `fetch API, ${build} build (handler answers 503)`,
      (replayStore: MemoryReplayStore, b: Behaviour, onDuplicate?: DuplicatePolicy) => {
        const handler = webhookHandler({ secret: SECRET, replayStore, onDuplicate }, () => {
          if (b.failuresLeft-- > 0) return new Response(null, { status: 503 });
          b.processed++;
          return new Response(null, { status: 204 });
        });
        return listenOn(async (req, res) => {
          const chunks: Buffer[] = [];
          for await (const chunk of req) chunks.push(chunk as Buffer);
          const response = await handler(
            new Request(`http://127.0.0.1${req.url}`, {
              method: 'POST',
              headers: req.headers as Record<string, string>,
              body: Buffer.concat(chunks),
            }),
          );
          res
            .writeHead(response.status, Object.fromEntries(response.headers))
            .end(Buffer.from(await response.arrayBuffer()));
        });
      },
    ]),
  ),
};

/**
 * An adapter gives the claim back once the failed response is done, which may come just after the
 * sender has read it; the sender's retry comes later anyway: wait for it, not for a fixed time.
 */
const claimGivenBack = (store: MemoryReplayStore) => until('the claim given back', () => store.size === 0);

describe.each(Object.keys(receivers))('%s', (name) => {
  let target: Target | undefined;
  afterEach(() => target?.close());

  it('processes the retry of a delivery whose handler failed, then acknowledges its duplicate without running the handler', async () => {
    const behaviour = { failuresLeft: 1, processed: 0 };
    const store = new MemoryReplayStore();
    target = await receivers[name]!(store, behaviour);
    const headers = { 'x-webhook-signature': SIGNATURE };
    expect((await post(target.url, BODY, headers)).status).toBeGreaterThanOrEqual(500);
    await claimGivenBack(store);
    expect((await post(target.url, BODY, headers)).status).toBe(204);
    expect(behaviour.processed).toBe(1);
    expect(store.size, 'a delivery answered 2xx stays claimed').toBe(1);
    const duplicate = await post(target.url, BODY, headers);
    expect({ status: duplicate.status, body: duplicate.json() }).toEqual({
      status: 200,
      body: { status: 'duplicate', message: expect.stringMatching(/already received/) },
    });
    expect(behaviour.processed).toBe(1);
  });

  it("refuses the duplicate 409 with onDuplicate: 'reject'", async () => {
    const behaviour = { failuresLeft: 1, processed: 0 };
    const store = new MemoryReplayStore();
    target = await receivers[name]!(store, behaviour, 'reject');
    const headers = { 'x-webhook-signature': SIGNATURE };
    expect((await post(target.url, BODY, headers)).status).toBeGreaterThanOrEqual(500);
    await claimGivenBack(store);
    expect((await post(target.url, BODY, headers)).status).toBe(204);
    expect(behaviour.processed).toBe(1);
    expect(store.size, 'a delivery answered 2xx stays claimed').toBe(1);
    const replay = await post(target.url, BODY, headers);
    expect(replay.status).toBe(409);
    expect(replay.json().error).toBe('replayed');
    expect(behaviour.processed).toBe(1);
  });

  it('does not claim a delivery refused before its handler ran', async () => {
    const store = new MemoryReplayStore();
    target = await receivers[name]!(store, { failuresLeft: 0, processed: 0 });
    expect(
      (await post(target.url, BODY, { 'x-webhook-signature': SIGNATURE, 'content-type': 'text/plain' })).status,
    ).toBe(415);
    expect((await post(target.url, `${BODY} `, { 'x-webhook-signature': SIGNATURE })).status).toBe(401);
    expect(store.size).toBe(0);
  });
});
