// The inbox's metrics, recorded once and exported twice: to OpenTelemetry through
// `@opentelemetry/api` (a no-op until the application registers a MeterProvider) and to a
// Prometheus registry (prom-client) that `renderMetrics()` serves as text for a `/metrics` route.
import {
  metrics as otelMetrics,
  type Counter as OtelCounter,
  type Histogram as OtelHistogram,
  type MeterProvider,
  type ObservableGauge,
} from '@opentelemetry/api';
import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Answer } from '../answer.js';
import { withTimeout } from '../connection.js';

/** The meter and tracer name: the package's. */
export const INSTRUMENTATION_NAME = '@forms-api/webhook-inbox';

/** Queue states reported by `forms_inbox_queue_jobs` (BullMQ's, less the ones the inbox never uses). */
export const QUEUE_STATES = ['waiting', 'delayed', 'active', 'completed', 'failed'] as const;

/** Why a delivery was not accepted: webhook-verify's rejection reasons and the inbox's 503 kinds. */
export type RejectionReason = string;

/** Handler durations run from milliseconds to the worker's lock: buckets up to 60 s. */
const HANDLER_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Enqueueing is one Redis round trip that must end well inside the service's 5 s. */
const ENQUEUE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5];
/** Reading the queue's gauges at scrape time must not hold the scrape while Redis is away. */
const SCRAPE_TIMEOUT_MS = 2_000;

interface PrometheusInstruments {
  registry: Registry;
  accepted: Counter<'queue'>;
  rejected: Counter<'queue' | 'reason'>;
  enqueueDuration: Histogram<'queue'>;
  attempts: Counter<'queue' | 'outcome'>;
  handlerDuration: Histogram<'queue' | 'outcome'>;
  deadLetters: Counter<'queue'>;
  queueJobs: Gauge<'queue' | 'state'>;
  oldestWaitingAge: Gauge<'queue'>;
}

interface OtelInstruments {
  provider: MeterProvider;
  accepted: OtelCounter;
  rejected: OtelCounter;
  enqueueDuration: OtelHistogram;
  attempts: OtelCounter;
  handlerDuration: OtelHistogram;
  deadLetters: OtelCounter;
  queueJobs: ObservableGauge;
  oldestWaitingAge: ObservableGauge;
}

interface QueueSnapshot {
  counts: Record<string, number>;
  oldestWaitingAgeSeconds: number;
}

interface MetricsState {
  prometheus: PrometheusInstruments;
  otel: OtelInstruments | undefined;
  /** Queues of the inboxes and workers of this process, read at scrape time; counted by users. */
  queues: Map<Queue, number>;
}

// One state per process, shared by the ESM and CommonJS builds (an app may load both).
const STATE_KEY = Symbol.for('@forms-api/webhook-inbox/metrics');

function state(): MetricsState {
  const holder = globalThis as { [STATE_KEY]?: MetricsState };
  holder[STATE_KEY] ??= { prometheus: createPrometheusInstruments(), otel: undefined, queues: new Map() };
  return holder[STATE_KEY];
}

function createPrometheusInstruments(): PrometheusInstruments {
  const registry = new Registry();
  const registers = [registry];
  const instruments: PrometheusInstruments = {
    registry,
    accepted: new Counter({
      name: 'forms_inbox_deliveries_accepted_total',
      help: 'Deliveries stored in the queue and answered 202 (copies of a queued delivery included).',
      labelNames: ['queue'],
      registers,
    }),
    rejected: new Counter({
      name: 'forms_inbox_deliveries_rejected_total',
      help: 'Deliveries not stored, by reason (signature_mismatch, body_too_large, redis_unavailable, ...).',
      labelNames: ['queue', 'reason'],
      registers,
    }),
    enqueueDuration: new Histogram({
      name: 'forms_inbox_enqueue_duration_seconds',
      help: 'Time for Redis to confirm a delivery (the receiver answers 202 after it).',
      labelNames: ['queue'],
      buckets: ENQUEUE_BUCKETS,
      registers,
    }),
    attempts: new Counter({
      name: 'forms_inbox_handler_attempts_total',
      help: 'Handler runs, by outcome (completed or failed).',
      labelNames: ['queue', 'outcome'],
      registers,
    }),
    handlerDuration: new Histogram({
      name: 'forms_inbox_handler_duration_seconds',
      help: 'Duration of each handler run, by outcome.',
      labelNames: ['queue', 'outcome'],
      buckets: HANDLER_BUCKETS,
      registers,
    }),
    deadLetters: new Counter({
      name: 'forms_inbox_dead_letters_total',
      help: 'Deliveries that failed their last attempt and stay in the failed set.',
      labelNames: ['queue'],
      registers,
    }),
    queueJobs: new Gauge({
      name: 'forms_inbox_queue_jobs',
      help: 'Jobs in the queue by state, read from Redis at scrape time (the same figure on every process: aggregate with max).',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        const read = await sharedSnapshots();
        instruments.queueJobs.reset();
        for (const [queue, snapshot] of read) {
          for (const name of QUEUE_STATES)
            instruments.queueJobs.set({ queue: queue.name, state: name }, snapshot.counts[name] ?? 0);
        }
      },
    }),
    oldestWaitingAge: new Gauge({
      name: 'forms_inbox_oldest_waiting_age_seconds',
      help: 'Age of the oldest delivery waiting for a worker (0 when none waits), read from Redis at scrape time.',
      labelNames: ['queue'],
      registers,
      async collect() {
        const read = await sharedSnapshots();
        instruments.oldestWaitingAge.reset();
        for (const [queue, snapshot] of read)
          instruments.oldestWaitingAge.set({ queue: queue.name }, snapshot.oldestWaitingAgeSeconds);
      },
    }),
  };
  return instruments;
}

/** The OTel instruments of the MeterProvider registered now (re-created if the app registers another later). */
function otel(): OtelInstruments {
  const current = state();
  const provider = otelMetrics.getMeterProvider();
  if (current.otel?.provider === provider) return current.otel;
  const meter = provider.getMeter(INSTRUMENTATION_NAME);
  const queueJobs = meter.createObservableGauge('forms_inbox.queue.jobs', {
    description: 'Jobs in the queue by state, read from Redis when collected.',
    unit: '{job}',
  });
  const oldestWaitingAge = meter.createObservableGauge('forms_inbox.queue.oldest_waiting_age', {
    description: 'Age of the oldest delivery waiting for a worker (0 when none waits).',
    unit: 's',
  });
  meter.addBatchObservableCallback(
    async (result) => {
      for (const [queue, snapshot] of await sharedSnapshots()) {
        for (const name of QUEUE_STATES)
          result.observe(queueJobs, snapshot.counts[name] ?? 0, { queue: queue.name, state: name });
        result.observe(oldestWaitingAge, snapshot.oldestWaitingAgeSeconds, { queue: queue.name });
      }
    },
    [queueJobs, oldestWaitingAge],
  );
  current.otel = {
    provider,
    accepted: meter.createCounter('forms_inbox.deliveries.accepted', {
      description: 'Deliveries stored in the queue and answered 202.',
      unit: '{delivery}',
    }),
    rejected: meter.createCounter('forms_inbox.deliveries.rejected', {
      description: 'Deliveries not stored, by reason.',
      unit: '{delivery}',
    }),
    enqueueDuration: meter.createHistogram('forms_inbox.enqueue.duration', {
      description: 'Time for Redis to confirm a delivery.',
      unit: 's',
      advice: { explicitBucketBoundaries: ENQUEUE_BUCKETS },
    }),
    attempts: meter.createCounter('forms_inbox.handler.attempts', {
      description: 'Handler runs, by outcome.',
      unit: '{attempt}',
    }),
    handlerDuration: meter.createHistogram('forms_inbox.handler.duration', {
      description: 'Duration of each handler run, by outcome.',
      unit: 's',
      advice: { explicitBucketBoundaries: HANDLER_BUCKETS },
    }),
    deadLetters: meter.createCounter('forms_inbox.dead_letters', {
      description: 'Deliveries that failed their last attempt.',
      unit: '{delivery}',
    }),
    queueJobs,
    oldestWaitingAge,
  };
  return current.otel;
}

export function recordAccepted(queue: string, enqueueSeconds: number): void {
  const { prometheus } = state();
  prometheus.accepted.inc({ queue });
  prometheus.enqueueDuration.observe({ queue }, enqueueSeconds);
  const instruments = otel();
  instruments.accepted.add(1, { queue });
  instruments.enqueueDuration.record(enqueueSeconds, { queue });
}

export function recordRejected(queue: string, reason: RejectionReason): void {
  state().prometheus.rejected.inc({ queue, reason });
  otel().rejected.add(1, { queue, reason });
}

export function recordAttempt(queue: string, outcome: 'completed' | 'failed', seconds: number): void {
  const { prometheus } = state();
  prometheus.attempts.inc({ queue, outcome });
  prometheus.handlerDuration.observe({ queue, outcome }, seconds);
  const instruments = otel();
  instruments.attempts.add(1, { queue, outcome });
  instruments.handlerDuration.record(seconds, { queue, outcome });
}

export function recordDeadLetter(queue: string): void {
  state().prometheus.deadLetters.inc({ queue });
  otel().deadLetters.add(1, { queue });
}

/** Runs one handler attempt and records its outcome and duration. */
export async function measureAttempt<T>(queue: string, attempt: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await attempt();
    recordAttempt(queue, 'completed', (performance.now() - started) / 1000);
    return result;
  } catch (error) {
    recordAttempt(queue, 'failed', (performance.now() - started) / 1000);
    throw error;
  }
}

/** Reports this queue's depth and oldest waiting age until the returned function is called. */
export function observeQueue(queue: Queue): () => void {
  const { queues } = state();
  otel(); // creates the observable gauges on the provider registered now
  queues.set(queue, (queues.get(queue) ?? 0) + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const users = (queues.get(queue) ?? 1) - 1;
    if (users > 0) queues.set(queue, users);
    else queues.delete(queue);
  };
}

let pendingSnapshots: Promise<Array<[Queue, QueueSnapshot]>> | undefined;

/** One read of Redis for all the gauges collected at once (prom-client collects them concurrently). */
function sharedSnapshots(): Promise<Array<[Queue, QueueSnapshot]>> {
  pendingSnapshots ??= snapshots().finally(() => {
    pendingSnapshots = undefined;
  });
  return pendingSnapshots;
}

/** The queues' figures from Redis; a queue whose Redis does not answer in time is left out of this scrape. */
async function snapshots(): Promise<Array<[Queue, QueueSnapshot]>> {
  // One snapshot per queue name: an inbox and a worker of the same queue in one process report it once.
  const byName = new Map<string, Queue>();
  for (const queue of state().queues.keys()) if (!byName.has(queue.name)) byName.set(queue.name, queue);
  const read = await Promise.all(
    [...byName.values()].map(async (queue): Promise<[Queue, QueueSnapshot] | undefined> => {
      try {
        return [queue, await withTimeout(snapshot(queue), SCRAPE_TIMEOUT_MS, () => new Error('timeout'))];
      } catch {
        return undefined;
      }
    }),
  );
  return read.filter((entry): entry is [Queue, QueueSnapshot] => entry !== undefined);
}

async function snapshot(queue: Queue): Promise<QueueSnapshot> {
  const [counts, oldest] = await Promise.all([
    queue.getJobCounts(...QUEUE_STATES),
    // BullMQ pushes new jobs on the left of the wait list and workers take from the right: asc
    // order starts with the job that has waited longest.
    queue.getJobs(['waiting'], 0, 0, true),
  ]);
  const timestamp = oldest[0]?.timestamp;
  return {
    counts,
    oldestWaitingAgeSeconds: timestamp === undefined ? 0 : Math.max(0, (Date.now() - timestamp) / 1000),
  };
}

/**
 * The Prometheus text of this process: its counters and histograms (the deliveries its receivers
 * took, the attempts its workers ran) and the depth and age of its inboxes' and workers' queues,
 * read from Redis now. Serve it on a `/metrics` route, or use the adapters' metrics handlers.
 */
export async function inboxMetrics(): Promise<{ contentType: string; body: string }> {
  const { registry } = state().prometheus;
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/** `inboxMetrics()` as the answer every adapter sends. */
export async function answerMetrics(): Promise<Answer> {
  const { contentType, body } = await inboxMetrics();
  return { status: 200, headers: { 'content-type': contentType }, body };
}
