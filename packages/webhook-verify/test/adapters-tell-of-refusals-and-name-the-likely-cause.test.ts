// Issue #30 item 6: a receiver with a wrong secret refused every delivery and printed nothing, and
// the mismatch advice blamed re-serialisation even when the adapter had read the raw bytes itself.
// Every adapter now reports each refusal through `onRejected` (by default one stderr line when
// refusals start, then a summary a minute, never the secret, the signature or the body), and a
// mismatch names the cause the adapter can know: who read the body.
import express from 'express';
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { webhookMiddleware } from '../src/adapters/express.js';
import { webhookVerify } from '../src/adapters/fastify.js';
import * as fetchNode from '../src/adapters/fetch-node.js';
import * as fetchWeb from '../src/adapters/fetch-web.js';
import { createWebhookListener } from '../src/adapters/node.js';
import type { Rejection } from '../src/core/policy.js';
import { createRejectionLog } from '../src/core/rejection-log.js';
import type { WebhookRequestOptions } from '../src/core/request.js';
import { WebhookVerifyError } from '../src/node.js';
import { BODY, SECRET, SIGNATURE, listen, listenOn, post } from './http-helpers.js';

type Target = { url: string; close: () => Promise<void> };
type Start = (options: WebhookRequestOptions) => Promise<Target>;

const ok = { 'content-type': 'application/json' };
const adapters: Record<string, Start> = {
  'express middleware': async (options) => {
    const app = express();
    app.post(
      '/',
      webhookMiddleware(options, (_req, res) => res.sendStatus(204)),
    );
    return listen(createServer(app));
  },
  'node:http listener': (options) =>
    listenOn(createWebhookListener(options, (_p, _req, res) => void res.writeHead(204).end())),
  'fastify plugin': async (options) => {
    const app = Fastify();
    await app.register(async (scope) => {
      await scope.register(webhookVerify, options);
      scope.post('/', async (_request, reply) => reply.code(204).send());
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    return { url: `http://127.0.0.1:${port}/`, close: () => app.close() };
  },
  'fetch webhookHandler (node:crypto)': (options) =>
    fetchServer(fetchNode.webhookHandler(options, () => new Response(null, { status: 204 }))),
  'fetch webhookHandler (Web Crypto)': (options) =>
    fetchServer(fetchWeb.webhookHandler(options, () => new Response(null, { status: 204 }))),
  'fetch verifyWebhookRequest': (options) =>
    fetchServer(async (request) => {
      const result = await fetchNode.verifyWebhookRequest(request, options);
      return result.ok ? new Response(null, { status: 204 }) : result.response;
    }),
};

/** Serves a Fetch handler over node:http (the body streamed into a Request, as a Fetch server does). */
function fetchServer(handle: (request: Request) => Promise<Response>): Promise<Target> {
  return listenOn(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const response = await handle(
      new Request('http://127.0.0.1/', {
        method: 'POST',
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks),
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
  });
}

afterEach(() => vi.restoreAllMocks());

describe.each(Object.entries(adapters))('%s', (_name, start) => {
  it('reports a wrong secret to onRejected: the adapter read the raw bytes, so the secret is the likely cause', async () => {
    const reports: Array<{ rejection: Rejection; error: unknown }> = [];
    const target = await start({
      secret: 'whsec_another_secret_entirely',
      onRejected: (rejection, error) => reports.push({ rejection, error }),
    });
    try {
      const response = await post(target.url, BODY, { 'x-webhook-signature': SIGNATURE });
      expect(response.status).toBe(401);
      expect(response.json().message).toMatch(/read the raw request bytes itself.*secret is most likely not/);
      expect((await post(target.url, BODY, { ...ok, 'content-type': 'text/plain' })).status).toBe(415);
    } finally {
      await target.close();
    }
    expect(reports.map(({ rejection }) => [rejection.status, rejection.reason])).toEqual([
      [401, 'signature_mismatch'],
      [415, 'unsupported_content_type'],
    ]);
    expect(reports[0]!.error).toMatchObject({ kind: 'signature_mismatch', context: { bodyReadBy: 'adapter' } });
  });

  it('a hook that throws changes neither the answer nor ends the process', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const target = await start({
      secret: SECRET,
      onRejected: () => {
        throw new Error('logger down');
      },
    });
    try {
      expect((await post(target.url, BODY, { 'x-webhook-signature': `sha256=${'0'.repeat(64)}` })).status).toBe(401);
      expect((await post(target.url, BODY, { 'x-webhook-signature': SIGNATURE })).status).toBe(204);
    } finally {
      await target.close();
    }
  });
});

describe('by default', () => {
  it('a flood of forged deliveries is one stderr line, without the secret, the signature or the body', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
    // Three adapters of one process share the one log: still one line.
    const targets = await Promise.all([
      adapters['express middleware']!({ secret: SECRET }),
      adapters['fastify plugin']!({ secret: SECRET }),
      adapters['fetch webhookHandler (Web Crypto)']!({ secret: SECRET }),
    ]);
    const forged = `sha256=${'ab'.repeat(32)}`;
    try {
      for (const target of targets)
        for (let i = 0; i < 20; i++)
          expect((await post(target.url, BODY, { 'x-webhook-signature': forged })).status).toBe(401);
    } finally {
      await Promise.all(targets.map((t) => t.close()));
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[webhook-verify\] refused a delivery: 401 signature_mismatch: .*read the raw request bytes itself.*secret.* \(further refusals are summed up every 60 s\)$/,
    );
    expect(lines[0]).not.toContain(SECRET);
    expect(lines[0]).not.toContain('ab'.repeat(32));
    expect(lines[0]).not.toContain('Contact Form');
  });
});

describe('a body parser before the verifier', () => {
  it('turns the mismatch advice to the parser', async () => {
    const app = express();
    app.post(
      '/',
      express.raw({ type: 'application/json' }),
      webhookMiddleware({ secret: 'whsec_another_secret_entirely', onRejected: () => {} }, (_req, res) =>
        res.sendStatus(204),
      ),
    );
    const target = await listen(createServer(app));
    try {
      const response = await post(target.url, BODY, { 'x-webhook-signature': SIGNATURE });
      expect(response.status).toBe(401);
      expect(response.json().message).toMatch(
        /A body parser ran before the verifier.*mount the verifier before any body parser/,
      );
    } finally {
      await target.close();
    }
  });
});

describe('onRejected that is not a function', () => {
  it('is refused where the adapter is made', () => {
    const options = { secret: SECRET, onRejected: 'console' as never };
    for (const make of [
      () => webhookMiddleware(options),
      () => createWebhookListener(options, () => {}),
      () => fetchWeb.webhookHandler(options, () => new Response()),
    ]) {
      expect(make).toThrow(WebhookVerifyError);
      expect(make).toThrow(/`onRejected` takes a function/);
    }
  });
});

describe('createRejectionLog', () => {
  afterEach(() => vi.useRealTimers());

  it('writes the first refusal, then one summary by reason a window, and starts afresh after a quiet one', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const log = createRejectionLog({ label: '[x]', write: (line) => lines.push(line), windowMs: 60_000 });
    log.report({ status: 401, reason: 'signature_mismatch', message: 'No match.' });
    for (let i = 0; i < 1000; i++) log.report({ status: 401, reason: 'signature_mismatch', message: 'No match.' });
    log.report({ status: 413, reason: 'body_too_large', message: 'Too large.' });
    expect(lines).toEqual([
      '[x] refused a delivery: 401 signature_mismatch: No match. (further refusals are summed up every 60 s)',
    ]);
    vi.advanceTimersByTime(60_000);
    expect(lines[1]).toBe(
      '[x] refused 1001 more deliveries in the last 60 s: signature_mismatch 1000, body_too_large 1.',
    );
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(2);
    log.report({ status: 415, reason: 'unsupported_content_type', message: 'text/plain\n[x] forged line\u001b[2K' });
    expect(lines[2]).toMatch(
      /^\[x\] refused a delivery: 415 unsupported_content_type: text\/plain\\x0a\[x\] forged line\\x1b\[2K/,
    );
    log.close();
  });

  it('tells a misconfiguration in full once even inside a window, and sums up a window whose timer never ran', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const log = createRejectionLog({ write: (line) => lines.push(line), windowMs: 60_000 });
    log.report({ status: 401, reason: 'signature_mismatch', message: 'No match.' });
    log.report({ status: 500, reason: 'invalid_body', message: 'Mount it before express.json().' });
    log.report({ status: 500, reason: 'invalid_body', message: 'Mount it before express.json().' });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^\[webhook-verify\] cannot take deliveries: 500 invalid_body: Mount it before express\.json\(\)\./,
    );
    // As on a runtime that drops a request's timers: the clock moves, the timer does not run.
    vi.setSystemTime(Date.now() + 61_000);
    log.report({ status: 401, reason: 'signature_mismatch', message: 'No match.' });
    expect(lines[2]).toBe('[webhook-verify] refused 1 more delivery in the last 60 s: invalid_body 1.');
    log.close();
    expect(lines[3]).toBe('[webhook-verify] refused 1 more delivery in the last 60 s: signature_mismatch 1.');
  });
});
