// Test support: deliveries sent through receivers while a fault (a killed or frozen primary) strikes
// part-way, by a sender that posts each delivery again until it is accepted (a 503 would be a lost
// submission otherwise). Reports each delivery's answers and the longest refusal window; then
// checks that every delivery ran, and ran once but where a failover explains a second run.
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
  /** When the fault struck and when it was over (the promotion done), in `performance.now()` time. */
  faultWindow: { from: number; to: number };
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
  const faultWindow = { from: 0, to: 0 };
  const strike = async () => {
    faultWindow.from = performance.now();
    await options.fault();
    faultWindow.to = performance.now();
  };
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
        if (accepted === options.faultAfter) struck = strike();
        return;
      }
      refusingSince ??= sent;
      const reason = answer.body.error ?? String(answer.status);
      refusedBy[reason] = (refusedBy[reason] ?? 0) + 1;
      if (attempt > 2_000) throw new Error(`Delivery ${submissionId} was refused 2,000 times: ${reason}`);
    }
  });
  await struck;
  return { accepted, refusedBy, longestRefusalMs: Math.round(longestRefusalMs), faultWindow };
}

/**
 * Waits until every submission 1..count ran to the end on `workers`, then checks each ran once,
 * but for the second runs the README allows a failover: a run already under way when the primary
 * went (its end, recorded on the old primary, may not have reached the promoted replica) runs
 * again, and so does a job a worker took from a hung primary as it woke (`woke`). Any other
 * second run fails the test. Returns how many second runs each of the two explains.
 */
export async function expectEachRanOnce(
  workers: readonly Fixture[],
  count: number,
  failover: { from: number; to: number; woke?: number },
  timeoutMs = Math.max(60_000, count * 50),
): Promise<{ underWay: number; atTheWaking: number }> {
  type Run = { pid: number; job: string; start: number; end?: number };
  const runsOf = () => {
    const runs = new Map<number, Run[]>();
    for (const worker of workers)
      for (const message of worker.messages) {
        if (message.type === 'started') {
          const of = runs.get(message.submissionId) ?? [];
          of.push({ pid: message.pid, job: message.id, start: message.at! });
          runs.set(message.submissionId, of);
        } else if (message.type === 'done') {
          const run = runs
            .get(message.submissionId)
            ?.filter((r) => r.pid === message.pid && r.end === undefined)
            .at(-1);
          if (run) run.end = message.at!;
        }
      }
    return runs;
  };
  const ranToTheEnd = () => [...runsOf().values()].filter((of) => of.some((run) => run.end !== undefined)).length;
  const deadline = Date.now() + timeoutMs;
  while (ranToTheEnd() < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const runs = runsOf();
  const lost = Array.from({ length: count }, (_, i) => i + 1).filter(
    (id) => !runs.get(id)?.some((run) => run.end !== undefined),
  );
  // A run that started twice ran twice, even if one of them never finished.
  const twice = [...runs].filter(([, of]) => of.length > 1);
  // IPC adds a little delay to each stamp, hence the second of slack before the fault.
  const underWay = (run: Run) => run.start <= failover.to && (run.end ?? Infinity) >= failover.from - 1_000;
  // A hung primary that wakes (`woke`) answers its clients until the sentinels make it a replica:
  // a worker still connected to it takes a job that the promoted replica also hands out. Seen
  // starting about 130 ms after the waking, both runs at once: a second of slack either side.
  const atTheWaking = (run: Run) => failover.woke !== undefined && Math.abs(run.start - failover.woke) <= 1_000;
  /** What explains every run of a submission but its last, if anything does. */
  const causeOf = (of: Run[]): 'underWay' | 'atTheWaking' | undefined => {
    const earlier = of.slice(0, -1);
    if (earlier.every(underWay)) return 'underWay';
    return earlier.every((run) => underWay(run) || atTheWaking(run)) ? 'atTheWaking' : undefined;
  };
  const causes = twice.map(([, of]) => causeOf(of));
  // Each run of an unexplained one in ms from the fault, with its worker and job: enough to tell
  // a lost end (one worker, after the fault) from a job taken twice (two workers at once).
  const fromFault = (at: number | undefined) => (at === undefined ? 'never' : Math.round(at - failover.from));
  const unexplained = twice
    .filter((_, i) => causes[i] === undefined)
    .map(([id, of]) => ({
      id,
      promotedAtMs: Math.round(failover.to - failover.from),
      ...(failover.woke === undefined ? {} : { wokeAtMs: Math.round(failover.woke - failover.from) }),
      runs: of.map((run) => `${fromFault(run.start)}..${fromFault(run.end)} ms, pid ${run.pid}, job ${run.job}`),
    }));
  expect({ lost, unexplained }).toEqual({ lost: [], unexplained: [] });
  const counted = (cause: 'underWay' | 'atTheWaking') => causes.filter((c) => c === cause).length;
  return { underWay: counted('underWay'), atTheWaking: counted('atTheWaking') };
}
