// Test support: deliveries sent through receivers while a fault (a killed or frozen primary) strikes
// part-way, by a sender that posts each delivery again until it is accepted (a 503 would be a lost
// submission otherwise). Reports each delivery's answers and the longest refusal window; then
// checks that every delivery ran, and ran once, on the workers.
import { expect } from 'vitest';
import { inBatches, postDelivery, signedDelivery, type Posted } from './deliveries.js';
import type { Fixture } from './processes.js';

export interface ThroughAFault {
  /** Deliveries answered 202 (all of them, eventually). */
  accepted: number;
  /** Answers other than 202, by error (or status 0 for no answer). */
  refusedBy: Record<string, number>;
  /** From the first refused answer's sending to the first later 202, the longest such span (ms). */
  longestRefusalMs: number;
}

export async function deliverThroughAFault(options: {
  receivers: readonly Fixture[];
  count: number;
  /** Struck once this many deliveries were accepted (the sending goes on meanwhile); awaited before returning. */
  faultAfter: number;
  fault: () => Promise<void>;
  concurrency?: number;
}): Promise<ThroughAFault> {
  const refusedBy: Record<string, number> = {};
  let accepted = 0;
  let struck: Promise<void> | undefined;
  // Refusals in sending order: start of the current run of refusals, and the longest run so far.
  let refusingSince: number | undefined;
  let longestRefusalMs = 0;
  const ids = Array.from({ length: options.count }, (_, i) => i + 1);
  await inBatches(ids, options.concurrency ?? 8, async (submissionId, index) => {
    const delivery = await signedDelivery(submissionId);
    for (let attempt = 0; ; attempt++) {
      const receiver = options.receivers[(index + attempt) % options.receivers.length]!;
      const sent = performance.now();
      const answer: Posted = await postDelivery(`http://127.0.0.1:${receiver.port}/webhooks/forms`, delivery);
      if (answer.status === 202) {
        if (refusingSince !== undefined) {
          longestRefusalMs = Math.max(longestRefusalMs, performance.now() - refusingSince);
          refusingSince = undefined;
        }
        accepted++;
        if (accepted === options.faultAfter) struck = options.fault();
        return;
      }
      refusingSince ??= sent;
      const reason = answer.body.error ?? String(answer.status);
      refusedBy[reason] = (refusedBy[reason] ?? 0) + 1;
      if (attempt > 2_000) throw new Error(`Delivery ${submissionId} was refused 2,000 times: ${reason}`);
    }
  });
  await struck;
  return { accepted, refusedBy, longestRefusalMs: Math.round(longestRefusalMs) };
}

/** Waits until every submission 1..count ran to the end on `workers`, then checks each ran once. */
export async function expectEachRanOnce(
  workers: readonly Fixture[],
  count: number,
  timeoutMs = Math.max(60_000, count * 50),
) {
  const runsOf = (type: 'started' | 'done') => {
    const runs = new Map<number, number>();
    for (const worker of workers)
      for (const message of worker.messages)
        if (message.type === type) runs.set(message.submissionId, (runs.get(message.submissionId) ?? 0) + 1);
    return runs;
  };
  const deadline = Date.now() + timeoutMs;
  while (runsOf('done').size < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const done = runsOf('done');
  const lost = Array.from({ length: count }, (_, i) => i + 1).filter((id) => !done.has(id));
  // A run that started twice ran twice, even if one of them never finished.
  const twice = [...runsOf('started')].filter(([, n]) => n > 1).map(([id]) => id);
  expect({ lost, twice }).toEqual({ lost: [], twice: [] });
}
