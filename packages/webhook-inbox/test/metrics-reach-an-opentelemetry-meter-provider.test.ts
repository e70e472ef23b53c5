// The same metrics through OpenTelemetry: an application that registers a MeterProvider (here the
// SDK's, with an in-memory exporter) receives the inbox's counters, histograms and queue gauges,
// recorded from real deliveries to a Fastify receiver over HTTP and a worker on a real Redis.
import Fastify, { type FastifyInstance } from 'fastify';
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { until } from '@forms-api/test-support';
import { webhookInbox } from '../src/adapters/fastify.js';
import { createInbox, createInboxWorker, inboxMetrics, type Inbox, type InboxWorker } from '../src/index.js';
import { observeReconcileLag, recordReconciled } from '../src/telemetry/metrics.js';
import { postDelivery, SECRET, signedDelivery } from './support/deliveries.js';

const QUEUE = 'metrics-otel';
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
const provider = new MeterProvider({ readers: [reader] });
let redis: RedisServer;
let inbox: Inbox;
let worker: InboxWorker;
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  // Registered after the package was imported: the inbox picks up the provider registered now.
  metrics.setGlobalMeterProvider(provider);
  redis = await startRedisServer();
  inbox = createInbox({ connection: redis.url, secret: SECRET, queue: QUEUE, retry: { attempts: 1, backoffMs: 10 } });
  worker = createInboxWorker({
    connection: redis.url,
    queue: QUEUE,
    onFailure: () => {},
    handler: ({ payload }) => {
      if (payload!.submission_id === 3) throw new Error('refused');
    },
  });
  app = Fastify();
  await app.register(webhookInbox, { inbox, path: '/webhooks/forms' });
  url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/webhooks/forms`;
  await until('the inbox to connect', async () => (await inbox.health()).ok);
});

afterAll(async () => {
  await app?.close();
  await worker?.close();
  await inbox?.close();
  await redis?.close();
  await provider.shutdown();
  metrics.disable();
});

/** Collects now and returns the inbox's metrics by name. */
async function collect(): Promise<Map<string, MetricData>> {
  exporter.reset();
  await reader.forceFlush();
  const byName = new Map<string, MetricData>();
  for (const resourceMetrics of exporter.getMetrics()) {
    for (const scope of resourceMetrics.scopeMetrics) {
      if (scope.scope.name !== '@forms-api/webhook-inbox') continue;
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
    }
  }
  return byName;
}

function point(metric: MetricData | undefined, attributes: Record<string, string>) {
  const found =
    metric?.dataPoints.filter((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v)) ?? [];
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('OpenTelemetry metrics', () => {
  it('records deliveries, rejections, attempts, durations, dead letters and the queue gauges', async () => {
    for (let id = 1; id <= 4; id++) expect((await postDelivery(url, await signedDelivery(id))).status).toBe(202);
    const unsigned = await signedDelivery(5);
    expect((await postDelivery(url, unsigned, { 'x-webhook-signature': '' })).status).toBe(401);
    expect(
      (await postDelivery(url, { body: unsigned.body.replace('Ada', 'Eve'), signature: unsigned.signature })).status,
    ).toBe(401);
    await until('three completed, one dead letter', async () => {
      const jobs = (await collect()).get('forms_inbox.queue.jobs');
      if (!jobs) return false;
      const value = (state: string) => jobs.dataPoints.find((p) => p.attributes.state === state)?.value;
      return value('completed') === 3 && value('failed') === 1;
    });
    // What a reconciler's walk records (its own tests run one against a served list).
    recordReconciled(QUEUE, 3, 2);
    // And the lag its state in Redis gives when collected (a form without a watermark has none).
    const stopLag = observeReconcileLag(QUEUE, async () => [
      { form: 11, lagMs: 90_000 },
      { form: 12, lagMs: null },
    ]);
    const all = await collect();
    stopLag();
    expect(all.get('forms_inbox.reconcile.lag')!.dataPoints.map((p) => [p.attributes, p.value])).toEqual([
      [{ queue: QUEUE, form: '11' }, 90],
    ]);
    expect(point(all.get('forms_inbox.deliveries.accepted'), { queue: QUEUE }).value).toBe(4);
    expect(point(all.get('forms_inbox.reconciled'), { queue: QUEUE }).value).toBe(3);
    expect(point(all.get('forms_inbox.recovered'), { queue: QUEUE }).value).toBe(2);
    const rejected = all.get('forms_inbox.deliveries.rejected')!;
    expect(rejected.dataPoints.map((p) => [p.attributes.reason, p.value]).sort()).toEqual([
      ['missing_signature', 1],
      ['signature_mismatch', 1],
    ]);
    const enqueue = all.get('forms_inbox.enqueue.duration')!;
    expect(enqueue.dataPointType).toBe(DataPointType.HISTOGRAM);
    expect(enqueue.descriptor.unit).toBe('s');
    expect((point(enqueue, { queue: QUEUE }).value as { count: number }).count).toBe(4);
    expect(point(all.get('forms_inbox.handler.attempts'), { queue: QUEUE, outcome: 'completed' }).value).toBe(3);
    expect(point(all.get('forms_inbox.handler.attempts'), { queue: QUEUE, outcome: 'failed' }).value).toBe(1);
    expect(
      (
        point(all.get('forms_inbox.handler.duration'), { queue: QUEUE, outcome: 'completed' }).value as {
          count: number;
        }
      ).count,
    ).toBe(3);
    expect(point(all.get('forms_inbox.dead_letters'), { queue: QUEUE }).value).toBe(1);
    expect(point(all.get('forms_inbox.queue.jobs'), { queue: QUEUE, state: 'waiting' }).value).toBe(0);
    expect(point(all.get('forms_inbox.queue.oldest_waiting_age'), { queue: QUEUE }).value).toBe(0);

    // One set of instruments behind both exports: each Prometheus metric has its OpenTelemetry
    // twin, described in the same words.
    const help = new Map(
      [...(await inboxMetrics()).body.matchAll(/^# HELP (forms_inbox_\S+) (.*)$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    expect(help.size).toBe(all.size);
    expect([...all.values()].map((m) => m.descriptor.description).sort()).toEqual([...help.values()].sort());
  });
});
