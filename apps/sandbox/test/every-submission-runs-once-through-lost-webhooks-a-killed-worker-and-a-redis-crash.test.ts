// Issue #28's chaos proof, small (`pnpm bench` runs it at 500 answers): the observed sandbox, rate
// limit on, sends each webhook once; the receiver is down for a fifth of the answers, a worker
// process is SIGKILLed and replaced, Redis crashes while answers keep coming, and a reconciler
// walks the form throughout, racing the webhooks the receiver holds until a walk has passed them.
// Every submission ends in the handler's own record (an upsert on submissionKey) exactly once,
// one job per submission ran as its first, and the reconciler recovered each webhook that never
// reached Redis (a failed one may still have been stored: answered after the service gave up).
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

    // The webhooks that failed: every one sent while the receiver was down or Redis away (or that
    // never reached the receiver), and perhaps a few answered 202 after the service's 5 s.
    const { down, refused, unreachable, stored } = f.receiver;
    expect(down + unreachable).toBeGreaterThanOrEqual(whileDown);
    expect(refused + unreachable).toBeGreaterThanOrEqual(whileRedisAway);
    expect(f.failedWebhooks).toBeGreaterThanOrEqual(down + refused + unreachable);
    // Lost (no webhook job ran): only failed webhooks, at least those that never reached the inbox;
    // every delivery answered 202 ran.
    expect(f.lost).toBeLessThanOrEqual(f.failedWebhooks);
    expect(f.lost).toBeGreaterThanOrEqual(down + unreachable);
    expect(ANSWERS - f.lost).toBeGreaterThanOrEqual(stored);
    // The reconciler took first exactly the lost ones and those whose webhook came after it (which
    // ran again, not as the first, and the record dropped).
    expect(f.recovered).toBe(f.lost + f.lateWebhooks);
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
