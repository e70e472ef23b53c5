// Issue #28's chaos proof, small (`pnpm bench` runs it at 500 answers): the observed sandbox, rate
// limit on, sends each webhook once; the receiver is down for a fifth of the answers, a worker
// process is SIGKILLed and replaced, Redis crashes while answers keep coming, and a reconciler
// walks the form throughout, racing the webhooks the receiver holds until a walk has passed them.
// Every submission ends in the handler's own record (an upsert on submissionKey) exactly once,
// one job per submission ran as its first, and the reconciler recovered each failed webhook.
import { describe, expect, it } from 'vitest';
import { formatReconcileChaos, runReconcileChaos } from '../bench/reconcile-chaos.mjs';

const ANSWERS = 80;

describe('the webhook inbox and its reconciler against the observed sandbox, in chaos', () => {
  it(`runs each of ${ANSWERS} submissions once through lost webhooks, a killed worker and a Redis crash`, async () => {
    const f = await runReconcileChaos({ answers: ANSWERS });
    for (const line of formatReconcileChaos(f)) console.log(line);
    const [, whileDown, , whileRedisAway] = f.segments;

    // Every submission made is in the record exactly once, and nothing else is.
    expect(f.made).toHaveLength(ANSWERS);
    expect([...f.recorded].sort()).toEqual([...f.made].sort());
    // The claims let one job per submission run as its first (a job taken over counts once).
    expect(f.claimedTwice).toEqual([]);
    expect(f.reconciledNotFirst).toBe(0);
    expect(f.deadLetters).toBe(0);

    // Every webhook failed while the receiver was down or Redis away, and the sandbox says so.
    expect(f.receiver.down).toBe(whileDown);
    expect(f.receiver.refused).toBeGreaterThanOrEqual(whileRedisAway);
    expect(f.failedWebhooks).toBe(f.receiver.down + f.receiver.refused);
    // The reconciler took first exactly the failed ones and those whose webhook came after it
    // (which ran again, not as the first, and the record dropped).
    expect(f.recovered).toBe(f.failedWebhooks + f.lateWebhooks);
    expect(f.byWebhook + f.recovered).toBe(ANSWERS);
    expect(f.lateWebhooks).toBeGreaterThan(0);
    expect(f.duplicatesDropped.lateWebhook).toBeGreaterThanOrEqual(f.lateWebhooks);
    expect(f.duplicatesDropped.record).toBe(f.handlerRuns - ANSWERS);

    // The kill happened in the run: the victim had run jobs, and jobs ran after it died.
    expect(f.killed.signal).toBe('SIGKILL');
    expect(f.killed.runsBefore).toBeGreaterThan(0);
    expect(f.killed.runsAfter).toBeGreaterThan(0);
  }, 180_000);
});
