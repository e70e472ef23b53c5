// The inbox's metrics: one table of instruments, recorded once and exported twice: to
// OpenTelemetry through `@opentelemetry/api` (a no-op until the application registers a
// MeterProvider) and to a Prometheus registry (prom-client) that `inboxMetrics()` serves as text
// for a `/metrics` route.
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

/**
 * Every instrument, declared once: the Prometheus registry and the OpenTelemetry meter are both
 * built from this table (the Prometheus name carries its unit and `_total` as that format wants,
 * the OpenTelemetry name is dotted with the unit apart), so the two exports cannot disagree.
 */
const INSTRUMENTS = {
  accepted: {
    kind: 'counter',
    prometheus: 'forms_inbox_deliveries_accepted_total',
    otel: 'forms_inbox.deliveries.accepted',
    unit: '{delivery}',
    labels: ['queue'],
    description: 'Deliveries stored in the queue and answered 202 (copies of a queued delivery included).',
  },
  rejected: {
    kind: 'counter',
    prometheus: 'forms_inbox_deliveries_rejected_total',
    otel: 'forms_inbox.deliveries.rejected',
    unit: '{delivery}',
    labels: ['queue', 'reason'],
    description: 'Deliveries not stored, by reason (signature_mismatch, body_too_large, redis_unavailable, ...).',
  },
  enqueueDuration: {
    kind: 'histogram',
    prometheus: 'forms_inbox_enqueue_duration_seconds',
    otel: 'forms_inbox.enqueue.duration',
    unit: 's',
    labels: ['queue'],
    buckets: ENQUEUE_BUCKETS,
    description: 'Time for Redis to confirm a delivery (the receiver answers 202 after it).',
  },
  attempts: {
    kind: 'counter',
    prometheus: 'forms_inbox_handler_attempts_total',
    otel: 'forms_inbox.handler.attempts',
    unit: '{attempt}',
    labels: ['queue', 'outcome'],
    description: 'Handler runs, by outcome (completed or failed).',
  },
  handlerDuration: {
    kind: 'histogram',
    prometheus: 'forms_inbox_handler_duration_seconds',
    otel: 'forms_inbox.handler.duration',
    unit: 's',
    labels: ['queue', 'outcome'],
    buckets: HANDLER_BUCKETS,
    description: 'Duration of each handler run, by outcome.',
  },
  deadLetters: {
    kind: 'counter',
    prometheus: 'forms_inbox_dead_letters_total',
    otel: 'forms_inbox.dead_letters',
    unit: '{delivery}',
    labels: ['queue'],
    description: 'Deliveries that failed their last attempt and stay in the failed set.',
  },
  reconciled: {
    kind: 'counter',
    prometheus: 'forms_inbox_reconciled_total',
    otel: 'forms_inbox.reconciled',
    unit: '{submission}',
    labels: ['queue'],
    description: 'Listed submissions the reconciler looked at (old enough, in range, once per walk).',
  },
  recovered: {
    kind: 'counter',
    prometheus: 'forms_inbox_recovered_total',
    otel: 'forms_inbox.recovered',
    unit: '{submission}',
    labels: ['queue'],
    description:
      'Submissions the reconciler queued because no delivery of theirs was stored (their webhook failed or never came).',
  },
  queueJobs: {
    kind: 'gauge',
    prometheus: 'forms_inbox_queue_jobs',
    otel: 'forms_inbox.queue.jobs',
    unit: '{job}',
    labels: ['queue', 'state'],
    description:
      'Jobs in the queue by state, read from Redis when collected (the same figure on every process: aggregate with max).',
  },
  oldestWaitingAge: {
    kind: 'gauge',
    prometheus: 'forms_inbox_oldest_waiting_age_seconds',
    otel: 'forms_inbox.queue.oldest_waiting_age',
    unit: 's',
    labels: ['queue'],
    description: 'Age of the oldest delivery waiting for a worker (0 when none waits), read from Redis when collected.',
  },
  reconcileLag: {
    kind: 'gauge',
    prometheus: 'forms_inbox_reconcile_lag_seconds',
    otel: 'forms_inbox.reconcile.lag',
    unit: 's',
    labels: ['queue', 'form'],
    description:
      "Now less the form's reconcile watermark: every submission older than it was looked at, and queued if no delivery had. About the grace plus up to an interval and a walk; growing means the walks fall behind. Read from Redis when collected.",
  },
} as const satisfies Record<
  string,
  {
    kind: 'counter' | 'histogram' | 'gauge';
    prometheus: string;
    otel: string;
    unit: string;
    labels: readonly string[];
    buckets?: readonly number[];
    description: string;
  }
>;

type InstrumentName = keyof typeof INSTRUMENTS;
type GaugeName = { [K in InstrumentName]: (typeof INSTRUMENTS)[K]['kind'] extends 'gauge' ? K : never }[InstrumentName];
type Labels = Record<string, string>;

/** The gauges' readings from the queues' snapshots: computed once for both exports. */
function gaugeReadings({ queues, lags }: Readings): Array<{ gauge: GaugeName; value: number; labels: Labels }> {
  return [
    ...queues.flatMap(([queue, snapshot]) => [
      ...QUEUE_STATES.map((name) => ({
        gauge: 'queueJobs' as const,
        value: snapshot.counts[name] ?? 0,
        labels: { queue: queue.name, state: name },
      })),
      { gauge: 'oldestWaitingAge' as const, value: snapshot.oldestWaitingAgeSeconds, labels: { queue: queue.name } },
    ]),
    ...lags.map(({ queue, form, seconds }) => ({
      gauge: 'reconcileLag' as const,
      value: seconds,
      labels: { queue, form: String(form) },
    })),
  ];
}

interface QueueSnapshot {
  counts: Record<string, number>;
  oldestWaitingAgeSeconds: number;
}

/** Each watched form's lag, as the reconcile state in Redis gives it (null: no watermark yet). */
export type LagReader = () => Promise<ReadonlyArray<{ form: number; lagMs: number | null }>>;

/** What one collection read from Redis. */
interface Readings {
  queues: Array<[Queue, QueueSnapshot]>;
  lags: Array<{ queue: string; form: number; seconds: number }>;
}

type PrometheusInstrument = Counter<string> | Histogram<string> | Gauge<string>;
type OtelInstrument = OtelCounter | OtelHistogram | ObservableGauge;

interface MetricsState {
  registry: Registry;
  prometheus: Record<InstrumentName, PrometheusInstrument>;
  otel: { provider: MeterProvider; instruments: Record<InstrumentName, OtelInstrument> } | undefined;
  /** Queues of the inboxes and workers of this process, read at scrape time; counted by users. */
  queues: Map<Queue, number>;
  /** The lag readers of this process's reconcilers, with their queue's name. */
  lagReaders: Map<LagReader, string>;
}

// One state per process, shared by the ESM and CommonJS builds (an app may load both).
const STATE_KEY = Symbol.for('@forms-api/webhook-inbox/metrics');

function state(): MetricsState {
  const holder = globalThis as { [STATE_KEY]?: MetricsState };
  if (!holder[STATE_KEY]) {
    const registry = new Registry();
    holder[STATE_KEY] = {
      registry,
      prometheus: prometheusInstruments(registry),
      otel: undefined,
      queues: new Map(),
      lagReaders: new Map(),
    };
  }
  return holder[STATE_KEY];
}

function prometheusInstruments(registry: Registry): Record<InstrumentName, PrometheusInstrument> {
  const registers = [registry];
  return Object.fromEntries(
    (Object.entries(INSTRUMENTS) as Array<[InstrumentName, (typeof INSTRUMENTS)[InstrumentName]]>).map(([key, d]) => {
      const common = { name: d.prometheus, help: d.description, labelNames: [...d.labels], registers };
      if (d.kind === 'counter') return [key, new Counter(common)];
      if (d.kind === 'histogram') return [key, new Histogram({ ...common, buckets: [...d.buckets] })];
      // Set from Redis at scrape time: the gauges of one scrape share one read (sharedSnapshots).
      const gauge: Gauge<string> = new Gauge({
        ...common,
        async collect() {
          const readings = gaugeReadings(await sharedSnapshots());
          gauge.reset();
          for (const r of readings) if (r.gauge === key) gauge.set(r.labels, r.value);
        },
      });
      return [key, gauge];
    }),
  ) as Record<InstrumentName, PrometheusInstrument>;
}

/** The OTel instruments of the MeterProvider registered now (re-created if the app registers another later). */
function otel(): Record<InstrumentName, OtelInstrument> {
  const current = state();
  const provider = otelMetrics.getMeterProvider();
  if (current.otel?.provider === provider) return current.otel.instruments;
  const meter = provider.getMeter(INSTRUMENTATION_NAME);
  const instruments = Object.fromEntries(
    (Object.entries(INSTRUMENTS) as Array<[InstrumentName, (typeof INSTRUMENTS)[InstrumentName]]>).map(([key, d]) => {
      const options = { description: d.description, unit: d.unit };
      if (d.kind === 'counter') return [key, meter.createCounter(d.otel, options)];
      if (d.kind === 'histogram')
        return [
          key,
          meter.createHistogram(d.otel, { ...options, advice: { explicitBucketBoundaries: [...d.buckets] } }),
        ];
      return [key, meter.createObservableGauge(d.otel, options)];
    }),
  ) as Record<InstrumentName, OtelInstrument>;
  const gauges = (Object.keys(INSTRUMENTS) as InstrumentName[]).filter((name) => INSTRUMENTS[name].kind === 'gauge');
  meter.addBatchObservableCallback(
    async (result) => {
      for (const { gauge, value, labels } of gaugeReadings(await sharedSnapshots()))
        result.observe(instruments[gauge] as ObservableGauge, value, labels);
    },
    gauges.map((name) => instruments[name] as ObservableGauge),
  );
  current.otel = { provider, instruments };
  return instruments;
}

/** Adds one to a counter, in both exports. */
function count(name: InstrumentName, labels: Labels): void {
  add(name, 1, labels);
}

/** Adds to a counter, in both exports (nothing for 0). */
function add(name: InstrumentName, value: number, labels: Labels): void {
  if (value === 0) return;
  (state().prometheus[name] as Counter<string>).inc(labels, value);
  (otel()[name] as OtelCounter).add(value, labels);
}

/** Records a value of a histogram, in both exports. */
function observe(name: InstrumentName, value: number, labels: Labels): void {
  (state().prometheus[name] as Histogram<string>).observe(labels, value);
  (otel()[name] as OtelHistogram).record(value, labels);
}

export function recordAccepted(queue: string, enqueueSeconds: number): void {
  count('accepted', { queue });
  observe('enqueueDuration', enqueueSeconds, { queue });
}

export function recordRejected(queue: string, reason: RejectionReason): void {
  count('rejected', { queue, reason });
}

export function recordAttempt(queue: string, outcome: 'completed' | 'failed', seconds: number): void {
  count('attempts', { queue, outcome });
  observe('handlerDuration', seconds, { queue, outcome });
}

export function recordReconciled(queue: string, examined: number, recovered: number): void {
  add('reconciled', examined, { queue });
  add('recovered', recovered, { queue });
}

export function recordDeadLetter(queue: string): void {
  count('deadLetters', { queue });
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

/** Reports the reconcile lag of each form `read` gives until the returned function is called. */
export function observeReconcileLag(queue: string, read: LagReader): () => void {
  otel(); // creates the observable gauges on the provider registered now
  state().lagReaders.set(read, queue);
  return () => void state().lagReaders.delete(read);
}

let pendingSnapshots: Promise<Readings> | undefined;

/** One read of Redis for all the gauges collected at once (prom-client collects them concurrently). */
function sharedSnapshots(): Promise<Readings> {
  pendingSnapshots ??= snapshots().finally(() => {
    pendingSnapshots = undefined;
  });
  return pendingSnapshots;
}

/** The queues' and reconcilers' figures from Redis; what does not answer in time is left out of this scrape. */
async function snapshots(): Promise<Readings> {
  // One reading per queue name: two reconcilers of a queue in one process report its forms once.
  const readers = new Map<string, LagReader>();
  for (const [read, queue] of state().lagReaders) if (!readers.has(queue)) readers.set(queue, read);
  const [queues, lags] = await Promise.all([
    queueSnapshots(),
    Promise.all(
      [...readers].map(async ([queue, read]) => {
        try {
          const forms = await withTimeout(read(), SCRAPE_TIMEOUT_MS, () => new Error('timeout'));
          return forms.flatMap(({ form, lagMs }) => (lagMs === null ? [] : [{ queue, form, seconds: lagMs / 1000 }]));
        } catch {
          return [];
        }
      }),
    ),
  ]);
  return { queues, lags: lags.flat() };
}

async function queueSnapshots(): Promise<Array<[Queue, QueueSnapshot]>> {
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
  const { registry } = state();
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/** `inboxMetrics()` as the answer every adapter sends. */
export async function answerMetrics(): Promise<Answer> {
  const { contentType, body } = await inboxMetrics();
  return { status: 200, headers: { 'content-type': contentType }, body };
}
