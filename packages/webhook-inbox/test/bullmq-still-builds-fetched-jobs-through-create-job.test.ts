// The worker overrides BullMQ's protected `Worker.createJob` (src/worker.ts, DeliveryWorker) so a job
// whose data is not JSON is failed with its reason instead of staying active: BullMQ has no public
// hook for it. This pins what the override relies on, so a BullMQ release that changes it fails
// here, by name, rather than leaving corrupt jobs stuck: the method exists with its two arguments,
// BullMQ calls it for every fetched job with the job's stored fields and id, and its own parse of
// data that is not JSON still throws (what the override catches).
import { Job, Worker, type JobJson } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from '@forms-api/test-support';
import { jobIdFor } from '../src/index.js';
import { postDelivery, signedDelivery } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const PINNED = 'src/worker.ts overrides BullMQ Worker.createJob(data: JobJson, jobId: string): Job';
type CreateJob = (this: Worker, data: JobJson, jobId: string) => Job;
const prototype = Worker.prototype as unknown as { createJob: CreateJob };
const original = prototype.createJob;
const calls: Array<{ worker: Worker; data: JobJson; jobId: string; built: Job }> = [];
const handled: string[] = [];
let world: InboxWorld;

beforeAll(async () => {
  // Watches BullMQ's own method: the override calls it (super.createJob) for every job it builds.
  vi.spyOn(prototype, 'createJob').mockImplementation(function (this: Worker, data, jobId) {
    const built = original.call(this, data, jobId);
    calls.push({ worker: this, data, jobId, built });
    return built;
  });
  world = await startInboxWorld({ queue: 'create-job', worker: { handler: ({ id }) => void handled.push(id) } });
});

afterAll(async () => {
  await world?.close();
  vi.restoreAllMocks();
});

describe("BullMQ's Worker.createJob, which the inbox worker overrides", () => {
  it('is still a method taking the stored job and its id', () => {
    expect(typeof original, PINNED).toBe('function');
    expect(original.length, PINNED).toBe(2);
  });

  it('is what BullMQ calls for a fetched job, with its stored fields, and returns the Job it runs', async () => {
    const delivery = await signedDelivery(4_242);
    expect((await postDelivery(world.url, delivery)).status).toBe(202);
    const id = jobIdFor(delivery.body);
    await until('the delivery to be handled', () => handled.includes(id));
    const call = calls.find((c) => c.jobId === id);
    expect(call, `${PINNED}: BullMQ no longer builds fetched jobs through it`).toBeDefined();
    expect(typeof call!.data.data, PINNED).toBe('string');
    expect(call!.built, PINNED).toBeInstanceOf(Job);
    expect(call!.built.id).toBe(id);
  });

  it("still throws from BullMQ's own parse when the stored data is not JSON (what the override catches)", () => {
    const stored = { ...calls[0]!.data, data: '{"v":1,"body":' };
    expect(() => original.call(calls[0]!.worker, stored, 'wh-not-json'), PINNED).toThrow(SyntaxError);
  });
});
