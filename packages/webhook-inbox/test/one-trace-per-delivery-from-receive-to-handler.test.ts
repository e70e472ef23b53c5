// Traces through the OpenTelemetry API, read by an SDK's in-memory span exporter: each delivery is
// one trace, receive → verify → enqueue (→ BullMQ's add) in the receiver, then BullMQ's process span
// in the worker, continuing that trace from the context stored with the job, → handle; every
// retry joins the same trace. On each receiver adapter, over real HTTP and a real Redis.
import { createAdaptorServer } from '@hono/node-server';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '@forms-api/webhook-verify';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { createServer } from 'node:http';
import { listen, until } from '@forms-api/test-support';
import { inboxHandler } from '../src/adapters/fetch.js';
import { webhookInbox } from '../src/adapters/fastify.js';
import { inboxMiddleware } from '../src/adapters/node.js';
import { createInbox, createInboxWorker, type Inbox, type InboxWorker } from '../src/index.js';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';

const QUEUE = 'traces';
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let redis: RedisServer;
let inbox: Inbox;
let worker: InboxWorker;
const receivers: Record<string, string> = {};
const closers: Array<() => Promise<unknown>> = [];
const handled: Array<{ submissionId: number; attempt: number }> = [];

beforeAll(async () => {
  // What a Node app's OTel SDK does: a global provider, AsyncLocalStorage context, W3C propagation.
  provider.register();
  redis = await startRedisServer();
  inbox = createInbox({ connection: redis.url, secret: SECRET, queue: QUEUE, retry: { attempts: 3, backoffMs: 10 } });
  worker = createInboxWorker({
    connection: redis.url,
    queue: QUEUE,
    concurrency: 2,
    onFailure: () => {},
    handler: ({ payload, attempt }) => {
      handled.push({ submissionId: payload!.submission_id, attempt });
      if (payload!.submission_id === 7 && attempt === 1) throw new Error('the CRM was away');
    },
  });
  await until('the inbox to connect', async () => (await inbox.health()).ok);

  const node = createServer(inboxMiddleware(inbox));
  receivers.node = `${(await listen(node)).url}/webhooks/forms`;
  closers.push(() => new Promise((resolve) => node.close(resolve)));

  const fastify = Fastify();
  await fastify.register(webhookInbox, { inbox, path: '/webhooks/forms' });
  receivers.fastify = `${await fastify.listen({ port: 0, host: '127.0.0.1' })}/webhooks/forms`;
  closers.push(() => fastify.close());

  const handler = inboxHandler(inbox);
  const fetchServer = createAdaptorServer({ fetch: handler, hostname: '127.0.0.1' });
  receivers.fetch = `${(await listen(fetchServer)).url}/webhooks/forms`;
  closers.push(() => new Promise((resolve) => fetchServer.close(resolve)));
});

afterAll(async () => {
  for (const close of closers) await close().catch(() => {});
  await worker?.close();
  await inbox?.close();
  await redis?.close();
  await provider.shutdown();
  trace.disable();
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const one = (spans: ReadableSpan[], name: string) => {
  const found = named(spans, name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0]!;
};

/** The spans of the trace whose receive span carries this delivery id. */
function traceOf(deliveryId: string): ReadableSpan[] {
  const spans = exporter.getFinishedSpans();
  const receive = spans.find(
    (s) => s.name === 'webhook receive' && s.attributes['forms_inbox.delivery_id'] === deliveryId,
  );
  expect(receive, `a receive span for ${deliveryId}`).toBeDefined();
  return spans.filter((s) => s.spanContext().traceId === receive!.spanContext().traceId);
}

describe('one trace per delivery', () => {
  let submission = 100;
  for (const adapter of ['node', 'fastify', 'fetch']) {
    it(`${adapter}: receive → verify → enqueue → add → process → handle, with the delivery id, form and submission`, async () => {
      const answer = await postDelivery(receivers[adapter]!, await signedDelivery(++submission));
      expect(answer.status).toBe(202);
      const id = answer.body.id!;
      // BullMQ's process span ends after the handle span, once the job is marked completed.
      await until('the process span', () =>
        exporter
          .getFinishedSpans()
          .some((s) => s.name === `process ${QUEUE}` && s.attributes['forms_inbox.delivery_id'] === id),
      );
      const spans = traceOf(id);
      const receive = one(spans, 'webhook receive');
      const verify = one(spans, 'webhook verify');
      const enqueue = one(spans, 'webhook enqueue');
      const add = one(spans, `add ${QUEUE}.submission.created`);
      const process = one(spans, `process ${QUEUE}`);
      const handle = one(spans, 'webhook handle');
      expect(spans).toHaveLength(6);
      // Parentage: the receive span is the root; the worker's spans continue the receiver's trace.
      expect(parentOf(receive)).toBeUndefined();
      expect(parentOf(verify)).toBe(receive.spanContext().spanId);
      expect(parentOf(enqueue)).toBe(receive.spanContext().spanId);
      expect(parentOf(add)).toBe(enqueue.spanContext().spanId);
      expect(parentOf(process)).toBe(add.spanContext().spanId);
      expect(parentOf(handle)).toBe(process.spanContext().spanId);
      expect([receive.kind, enqueue.kind, add.kind, process.kind]).toEqual([
        SpanKind.SERVER,
        SpanKind.PRODUCER,
        SpanKind.PRODUCER,
        SpanKind.CONSUMER,
      ]);
      // The order in time: verified before stored, sent to Redis before handled. The handle span
      // may start before the enqueue span ends: that span also covers the submission's claim, a
      // round trip after the add, while the worker may already have taken the job.
      const ns = ([seconds, nanos]: [number, number]) => BigInt(seconds) * 1_000_000_000n + BigInt(nanos);
      // The SDK starts each span at Date.now(), in whole milliseconds, and ends it a monotonic
      // duration later: two spans' times may be a millisecond out, so the order is judged to 2 ms.
      const slack = 2_000_000n;
      expect(ns(verify.endTime) <= ns(enqueue.startTime) + slack).toBe(true);
      expect(ns(add.startTime) <= ns(handle.startTime) + slack).toBe(true);
      const ids = { 'forms_inbox.delivery_id': id, 'forms_inbox.form_id': 11, 'forms_inbox.submission_id': submission };
      expect(receive.attributes).toMatchObject({
        ...ids,
        'forms_inbox.queue': QUEUE,
        'http.response.status_code': 202,
      });
      expect(verify.attributes).toMatchObject({ 'forms_inbox.form_id': 11, 'forms_inbox.submission_id': submission });
      expect(enqueue.attributes).toMatchObject({ 'forms_inbox.delivery_id': id });
      expect(add.attributes).toMatchObject({ 'bullmq.job.id': id });
      expect(process.attributes).toMatchObject({ ...ids, 'forms_inbox.attempt': 1 });
      expect(handle.attributes).toMatchObject({ ...ids, 'forms_inbox.attempt': 1 });
      for (const span of spans) expect(span.status.code, span.name).not.toBe(SpanStatusCode.ERROR);
    });
  }

  it('a retried delivery stays one trace: each attempt a process and a handle span, the failed one an error', async () => {
    const answer = await postDelivery(receivers.node!, await signedDelivery(7));
    expect(answer.status).toBe(202);
    const id = answer.body.id!;
    await until('the second attempt', () =>
      exporter
        .getFinishedSpans()
        .some(
          (s) =>
            s.name === `process ${QUEUE}` &&
            s.attributes['forms_inbox.delivery_id'] === id &&
            s.attributes['forms_inbox.attempt'] === 2,
        ),
    );
    const spans = traceOf(id);
    const handles = named(spans, 'webhook handle').sort(
      (a, b) => Number(a.attributes['forms_inbox.attempt']) - Number(b.attributes['forms_inbox.attempt']),
    );
    expect(handles.map((h) => [h.attributes['forms_inbox.attempt'], h.status.code])).toEqual([
      [1, SpanStatusCode.ERROR],
      [2, SpanStatusCode.UNSET],
    ]);
    expect(handles[0]!.events.map((e) => e.name)).toContain('exception');
    const add = one(spans, `add ${QUEUE}.submission.created`);
    const processes = named(spans, `process ${QUEUE}`);
    expect(processes).toHaveLength(2);
    for (const process of processes) expect(parentOf(process)).toBe(add.spanContext().spanId);
    expect(handles.map(parentOf).sort()).toEqual(processes.map((p) => p.spanContext().spanId).sort());
  });

  it('two deliveries are two traces', async () => {
    const [a, b] = [await signedDelivery(201), await signedDelivery(202)];
    const answers = await Promise.all([postDelivery(receivers.node!, a), postDelivery(receivers.fetch!, b)]);
    const [idA, idB] = answers.map((answer) => answer.body.id!) as [string, string];
    await until('both handled', () =>
      [idA, idB].every((id) =>
        exporter
          .getFinishedSpans()
          .some((s) => s.name === 'webhook handle' && s.attributes['forms_inbox.delivery_id'] === id),
      ),
    );
    expect(traceOf(idA)[0]!.spanContext().traceId).not.toBe(traceOf(idB)[0]!.spanContext().traceId);
  });

  for (const adapter of ['node', 'fastify', 'fetch']) {
    it(`${adapter}: a rejected request is a receive span and a verify span ending in error with the reason, and nothing more`, async () => {
      const forged = await signedDelivery(300);
      const answer = await postDelivery(receivers[adapter]!, {
        body: forged.body,
        signature: await sign('whsec_someone_else_entirely_000000', forged.body),
      });
      expect(answer.status).toBe(401);
      const rejectedReceive = () =>
        exporter
          .getFinishedSpans()
          .find(
            (s) =>
              s.name === 'webhook receive' &&
              s.attributes['forms_inbox.submission_id'] === undefined &&
              s.attributes['http.response.status_code'] === 401,
          );
      await until('the receive span to end', () => rejectedReceive() !== undefined);
      const traceId = rejectedReceive()!.spanContext().traceId;
      // The receive span ends last; no job was added (the adapters test watches Redis), so no worker span can join.
      const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
      exporter.reset();
      expect(spans.map((s) => s.name).sort()).toEqual(['webhook receive', 'webhook verify']);
      const receive = one(spans, 'webhook receive');
      const verify = one(spans, 'webhook verify');
      expect(parentOf(verify)).toBe(receive.spanContext().spanId);
      for (const span of [receive, verify]) expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(receive.attributes).toMatchObject({
        'forms_inbox.rejection': 'signature_mismatch',
        'http.response.status_code': 401,
      });
      expect(receive.attributes['forms_inbox.delivery_id']).toBeUndefined();
    });
  }
});
