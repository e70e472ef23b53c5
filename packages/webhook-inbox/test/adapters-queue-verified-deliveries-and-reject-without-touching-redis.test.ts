// The Express, Fastify and Fetch receivers over real HTTP: a verified delivery is answered 202 and
// queued (a copy of it gets the same job id); rejections keep webhook-verify's policy (401, 400,
// 413, 415) and send not one command to Redis (watched with MONITOR).
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Queue } from 'bullmq';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '@forms-api/webhook-verify';
import { listen, until } from '@forms-api/test-support';
import { inboxHandler, inboxHealthHandler } from '../src/adapters/fetch.js';
import { webhookInbox } from '../src/adapters/fastify.js';
import { inboxHealthMiddleware, inboxMiddleware } from '../src/adapters/node.js';
import { createInbox, inboxQueuePrefix, jobIdFor, type Inbox } from '../src/index.js';
import { deliveryBody, postDelivery, SECRET, signedDelivery } from './support/deliveries.js';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';

const MAX_BODY = 4_096;
let redis: RedisServer;
let inbox: Inbox;
let queue: Queue;
const servers: Array<{ name: string; url: string; close: () => Promise<unknown> }> = [];

beforeAll(async () => {
  redis = await startRedisServer();
  inbox = createInbox({ connection: redis.url, secret: SECRET, queue: 'adapters', maxBodyBytes: MAX_BODY });
  queue = new Queue('adapters', {
    connection: { host: '127.0.0.1', port: redis.port },
    prefix: inboxQueuePrefix('adapters'),
  });
  await until('the inbox to connect', async () => (await inbox.health()).ok);

  const app = express();
  app.post('/webhooks/forms', inboxMiddleware(inbox));
  app.post('/raw/webhooks/forms', express.raw({ type: 'application/json', limit: '1mb' }), inboxMiddleware(inbox));
  app.get('/healthz', inboxHealthMiddleware(inbox));
  const expressServer = createServer(app);
  const { url: expressBase } = await listen(expressServer);
  servers.push({
    name: 'express',
    url: `${expressBase}/webhooks/forms`,
    close: () => new Promise((r) => expressServer.close(r)),
  });
  servers.push({ name: 'express.raw', url: `${expressBase}/raw/webhooks/forms`, close: async () => {} });

  const fastify = Fastify();
  await fastify.register(webhookInbox, { inbox, path: '/webhooks/forms', healthPath: '/healthz' });
  fastify.post('/json', async (request) => ({ echoed: request.body }));
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  servers.push({
    name: 'fastify',
    url: `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}/webhooks/forms`,
    close: () => fastify.close(),
  });

  const handler = inboxHandler(inbox);
  const healthHandler = inboxHealthHandler(inbox);
  const fetchServer = createAdaptorServer({
    fetch: (request) => (new URL(request.url).pathname === '/healthz' ? healthHandler(request) : handler(request)),
    hostname: '127.0.0.1',
  });
  const { url: fetchBase } = await listen(fetchServer);
  servers.push({
    name: 'fetch',
    url: `${fetchBase}/webhooks/forms`,
    close: () => new Promise((r) => fetchServer.close(r)),
  });
});

afterAll(async () => {
  for (const server of servers) await server.close().catch(() => {});
  await queue?.close();
  await inbox?.close();
  await redis?.close();
});

/** Runs `action` and returns every command Redis received meanwhile (redis-cli MONITOR). */
async function commandsDuring(action: () => Promise<void>): Promise<string[]> {
  const monitor = spawn('redis-cli', ['-p', String(redis.port), 'monitor'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  monitor.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await until('MONITOR to start', () => output.startsWith('OK'));
    await action();
    // MONITOR shows commands in the order Redis runs them: once a marker sent after the action
    // shows, every command the action sent has shown too.
    const marker = `end-of-action-${Math.random().toString(36).slice(2)}`;
    execFileSync('redis-cli', ['-p', String(redis.port), 'echo', marker]);
    await until('the marker to show in MONITOR', () => output.includes(marker));
  } finally {
    monitor.kill('SIGKILL');
  }
  return output
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '' && !line.includes('"echo"'));
}

describe.each(['express', 'express.raw', 'fastify', 'fetch'])('the %s receiver', (name) => {
  const url = () => servers.find((s) => s.name === name)!.url;

  it('queues a verified delivery once and answers 202 with its job id, twice for a copy', async () => {
    const delivery = await signedDelivery(name.length * 1000 + 1);
    let first: Awaited<ReturnType<typeof postDelivery>> | undefined;
    // The same watch that sees nothing for rejections sees the one script call that stores this.
    const commands = await commandsDuring(async () => {
      first = await postDelivery(url(), delivery);
    });
    expect(commands.filter((line) => /"evalsha"|"eval"/i.test(line))).toHaveLength(1);
    const copy = await postDelivery(url(), delivery);
    const id = jobIdFor(delivery.body);
    expect(first).toMatchObject({ status: 202, body: { status: 'queued', id } });
    expect(copy).toMatchObject({ status: 202, body: { status: 'queued', id } });
    const job = await queue.getJob(id);
    expect(job?.name).toBe('submission.created');
    expect(Buffer.from(job!.data.body, 'base64').toString('utf8')).toBe(delivery.body);
    expect(job!.data.headers['x-webhook-signature']).toBe(delivery.signature);
    expect(job!.opts).toMatchObject({ attempts: 10, backoff: { type: 'exponential', delay: 2_000 } });
  });

  it("rejects with webhook-verify's policy and sends Redis nothing", async () => {
    const body = deliveryBody(99);
    const signature = await sign(SECRET, body);
    const notJson = 'not json at all';
    const tooLarge = deliveryBody(98, MAX_BODY * 2);
    const cases = [
      { label: 'no signature', request: { body, signature: '' }, status: 401, error: 'missing_signature' },
      {
        label: 'malformed signature',
        request: { body, signature: 'sha256=XYZ' },
        status: 401,
        error: 'malformed_signature',
      },
      {
        label: 'wrong signature',
        request: { body, signature: await sign('whsec_some_other_secret_000', body) },
        status: 401,
        error: 'signature_mismatch',
      },
      {
        label: 'signed but not JSON',
        request: { body: notJson, signature: await sign(SECRET, notJson) },
        status: 400,
        error: 'invalid_json',
      },
      {
        label: 'over maxBodyBytes',
        request: { body: tooLarge, signature: await sign(SECRET, tooLarge) },
        status: 413,
        error: 'body_too_large',
      },
      {
        label: 'not application/json',
        request: { body, signature },
        headers: { 'content-type': 'text/plain' },
        status: 415,
        error: 'unsupported_content_type',
      },
    ];
    const answers: Array<{ label: string; status: number; error?: string }> = [];
    const commands = await commandsDuring(async () => {
      for (const c of cases) {
        const headers: Record<string, string> = { ...c.headers };
        const answer = await postDelivery(url(), c.request, headers);
        answers.push({ label: c.label, status: answer.status, error: answer.body.error });
      }
    });
    expect(answers).toEqual(cases.map((c) => ({ label: c.label, status: c.status, error: c.error })));
    expect(commands).toEqual([]);
  });

  it('serves a health check that is 200 while Redis answers', async () => {
    const response = await fetch(url().replace(/\/(raw\/)?webhooks\/forms$/, '/healthz'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });
});

describe('the Fastify plugin', () => {
  it("keeps Fastify's JSON parser for routes outside its scope", async () => {
    const base = servers.find((s) => s.name === 'fastify')!.url.replace('/webhooks/forms', '');
    const response = await fetch(`${base}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await response.json()).toEqual({ echoed: { a: 1 } });
  });
});
