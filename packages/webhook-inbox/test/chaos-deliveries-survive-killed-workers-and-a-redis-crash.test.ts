// Chaos: 4,000 distinct signed deliveries through three receiver processes while worker processes
// are SIGKILLed every two seconds (and replaced) and Redis (AOF, appendfsync always) is crashed and
// restarted once. Every delivery answered 202 is handled, and a delivery handled twice is always
// one of the README's at-least-once cases. The handler runs are counted from files the workers
// write line by line. `pnpm bench` runs the same chaos at 20,000 deliveries and prints its figures;
// CHAOS_DELIVERIES sets the count here too.
import { describe, expect, it } from 'vitest';
import { formatChaos, runChaos } from '../bench/chaos.mjs';

const DELIVERIES = Number(process.env.CHAOS_DELIVERIES ?? 4_000);

describe('chaos', () => {
  it(
    `${DELIVERIES} deliveries, workers SIGKILLed every few seconds, Redis crashed once: none lost, no unexplained second run`,
    async () => {
      // Kills twice as often as the bench's run: a shorter run still loses several workers mid-job.
      const figures = await runChaos({ deliveries: DELIVERIES, killEveryMs: 2_000, log: (line) => console.log(line) });
      for (const line of formatChaos(figures)) console.log(line);
      expect(figures.accepted).toBe(DELIVERIES); // each sent again after a 503 until accepted
      expect(figures.workerKills).toBeGreaterThanOrEqual(3);
      expect(figures.redisRestarts).toBe(1);
      expect(figures.resent.answered503 + figures.resent.failedConnections).toBeGreaterThan(0); // Redis really was away
      expect({ lost: figures.lost, lostIds: figures.lostIds }).toEqual({ lost: 0, lostIds: [] });
      // Failed attempts can only be stalls (the handler never throws): none left as a dead letter.
      expect(figures.deadLetters).toBe(0);
      for (const failure of figures.failureSamples) expect(failure).toMatch(/stalled more than allowable limit/);
      expect(figures.duplicates.unexplainedIds).toEqual([]);
      expect(figures.duplicates.unexplained).toBe(0);
      expect(figures.strays).toBe(0); // no handler run of a delivery that was never accepted
    },
    30 * 60_000,
  );
});
