// The Prometheus endpoint, scraped over real HTTP after real signed deliveries through a real Redis:
// accepted and rejected deliveries by reason, enqueue latency, queue depth by state, the age of the
// oldest waiting delivery, handler attempts and durations, dead letters; and a scrape that still
// answers, promptly, while Redis is down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '@forms-api/webhook-verify';
import { until } from '@forms-api/test-support';
import { inboxMetricsMiddleware } from '../src/adapters/node.js';
import { inBatches, postDelivery, signedDelivery } from './support/deliveries.js';
import { parsePrometheus, valueOf, type Sample } from './support/prometheus.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const QUEUE = 'metrics-endpoint';
const q = { queue: QUEUE };
let world: InboxWorld;

beforeAll(async () => {
  const metrics = inboxMetricsMiddleware();
  world = await startInboxWorld({
    queue: QUEUE,
    inbox: { retry: { attempts: 2, backoffMs: 20 }, onRedisError: () => {} },
    serve: (receive) => (req, res) => (req.url === '/metrics' ? metrics(req, res) : receive(req, res)),
  });
});

afterAll(() => world?.close());

async function scrape(): Promise<{ samples: Sample[]; contentType: string | null; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${world.base}/metrics`);
  expect(response.status).toBe(200);
  const text = await response.text();
  return {
    samples: parsePrometheus(text),
    contentType: response.headers.get('content-type'),
    ms: performance.now() - started,
  };
}

describe('GET /metrics', () => {
  const url = () => `${world.base}/webhooks/forms`;

  it('counts accepted and rejected deliveries by reason, their enqueue latency, and the queue they wait in', async () => {
    const deliveries = await Promise.all(Array.from({ length: 12 }, (_, i) => signedDelivery(i + 1)));
    const firstPosted = Date.now();
    expect((await postDelivery(url(), deliveries[0]!)).status).toBe(202);
    const firstAccepted = Date.now();
    const rest = await inBatches(deliveries.slice(1), 4, (d) => postDelivery(url(), d));
    expect(rest.map((r) => r.status)).toEqual(Array(11).fill(202));
    // A copy of a queued delivery is answered 202 like the first: counted as accepted.
    expect((await postDelivery(url(), deliveries[0]!)).status).toBe(202);
    // Signed with another secret: 401 signature_mismatch.
    const forged = await signedDelivery(99);
    for (let i = 0; i < 3; i++)
      expect(
        (
          await postDelivery(url(), {
            body: forged.body,
            signature: await sign('whsec_someone_else_entirely_000000', forged.body),
          })
        ).status,
      ).toBe(401);
    // Not JSON: 415 unsupported_content_type.
    for (let i = 0; i < 2; i++)
      expect((await postDelivery(url(), deliveries[1]!, { 'content-type': 'text/plain' })).status).toBe(415);

    const scrapeStarted = Date.now();
    const { samples, contentType } = await scrape();
    const scrapeEnded = Date.now();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(valueOf(samples, 'forms_inbox_deliveries_accepted_total', q)).toBe(13);
    expect(valueOf(samples, 'forms_inbox_deliveries_rejected_total', { ...q, reason: 'signature_mismatch' })).toBe(3);
    expect(
      valueOf(samples, 'forms_inbox_deliveries_rejected_total', { ...q, reason: 'unsupported_content_type' }),
    ).toBe(2);
    expect(valueOf(samples, 'forms_inbox_enqueue_duration_seconds_count', q)).toBe(13);
    const enqueueSeconds = valueOf(samples, 'forms_inbox_enqueue_duration_seconds_sum', q)!;
    expect(enqueueSeconds).toBeGreaterThan(0);
    expect(enqueueSeconds / 13).toBeLessThan(2); // each below enqueueTimeoutMs, or it would have been a 503
    expect(valueOf(samples, 'forms_inbox_enqueue_duration_seconds_bucket', { ...q, le: '+Inf' })).toBe(13);
    // No worker yet: twelve distinct deliveries wait.
    expect(valueOf(samples, 'forms_inbox_queue_jobs', { ...q, state: 'waiting' })).toBe(12);
    expect(valueOf(samples, 'forms_inbox_queue_jobs', { ...q, state: 'completed' })).toBe(0);
    const age = valueOf(samples, 'forms_inbox_oldest_waiting_age_seconds', q)!;
    expect(age).toBeGreaterThanOrEqual((scrapeStarted - firstAccepted) / 1000 - 0.001);
    expect(age).toBeLessThanOrEqual((scrapeEnded - firstPosted) / 1000 + 0.001);
    expect(valueOf(samples, 'forms_inbox_handler_attempts_total', { ...q, outcome: 'completed' })).toBeUndefined();
  });

  it('counts handler attempts by outcome, their durations and the dead letters once workers run', async () => {
    world.startWorker({
      concurrency: 4,
      onFailure: () => {},
      async handler({ payload }) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        if (payload!.submission_id <= 2) throw new Error(`the CRM refused submission ${payload!.submission_id}`);
      },
    });
    let samples: Sample[] = [];
    await until('ten completed and two dead letters in the scrape', async () => {
      samples = (await scrape()).samples;
      // Redis moves a job to the failed set before the worker's 'failed' event counts the dead letter.
      return (
        valueOf(samples, 'forms_inbox_queue_jobs', { ...q, state: 'completed' }) === 10 &&
        valueOf(samples, 'forms_inbox_queue_jobs', { ...q, state: 'failed' }) === 2 &&
        valueOf(samples, 'forms_inbox_dead_letters_total', q) === 2
      );
    });
    expect(valueOf(samples, 'forms_inbox_queue_jobs', { ...q, state: 'waiting' })).toBe(0);
    expect(valueOf(samples, 'forms_inbox_queue_jobs', { ...q, state: 'active' })).toBe(0);
    expect(valueOf(samples, 'forms_inbox_queue_jobs', { ...q, state: 'delayed' })).toBe(0);
    expect(valueOf(samples, 'forms_inbox_oldest_waiting_age_seconds', q)).toBe(0);
    // Two deliveries failed twice each (attempts: 2): four failed attempts, two dead letters.
    expect(valueOf(samples, 'forms_inbox_handler_attempts_total', { ...q, outcome: 'completed' })).toBe(10);
    expect(valueOf(samples, 'forms_inbox_handler_attempts_total', { ...q, outcome: 'failed' })).toBe(4);
    expect(valueOf(samples, 'forms_inbox_dead_letters_total', q)).toBe(2);
    expect(valueOf(samples, 'forms_inbox_handler_duration_seconds_count', { ...q, outcome: 'completed' })).toBe(10);
    expect(valueOf(samples, 'forms_inbox_handler_duration_seconds_count', { ...q, outcome: 'failed' })).toBe(4);
    // Each run slept 30 ms: no run is in the 25 ms bucket, every run is in the 5 s one.
    expect(
      valueOf(samples, 'forms_inbox_handler_duration_seconds_bucket', { ...q, outcome: 'completed', le: '0.025' }),
    ).toBe(0);
    expect(
      valueOf(samples, 'forms_inbox_handler_duration_seconds_bucket', { ...q, outcome: 'completed', le: '5' }),
    ).toBe(10);
    expect(
      valueOf(samples, 'forms_inbox_handler_duration_seconds_sum', { ...q, outcome: 'completed' }),
    ).toBeGreaterThanOrEqual(10 * 0.029);
  });

  it('counts 503s by their kind, and still answers a scrape promptly while Redis is down (without the queue gauges)', async () => {
    await world.redis.stop('SIGTERM');
    await until('the inbox to see Redis gone', async () => !(await world.inbox.health()).ok);
    const delivery = await signedDelivery(500);
    const answer = await postDelivery(url(), delivery);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('redis_unavailable');
    const { samples, ms } = await scrape();
    expect(valueOf(samples, 'forms_inbox_deliveries_rejected_total', { ...q, reason: 'redis_unavailable' })).toBe(1);
    expect(valueOf(samples, 'forms_inbox_deliveries_accepted_total', q)).toBe(13);
    expect(valueOf(samples, 'forms_inbox_queue_jobs', { ...q, state: 'waiting' })).toBeUndefined();
    expect(ms).toBeLessThan(4_000);
    await world.redis.start();
  });
});
