// A handler can reject with anything: `null`, `undefined`, a string, an Error whose `message`
// getter throws. Each must count as a failed attempt at once (not stall until the lock expires and
// end as "job stalled more than allowable limit"), with a failedReason that says what was thrown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@forms-api/test-support';
import { postDelivery, signedDelivery } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const hostile = new Error('unused');
Object.defineProperty(hostile, 'message', {
  get() {
    throw new Error('the message getter exploded');
  },
});
const THROWN: Record<number, () => unknown> = {
  1: () => null,
  2: () => undefined,
  3: () => 'the CRM said no',
  4: () => hostile,
  5: () => ({ code: 'E_CRM', retryable: false }),
};
let world: InboxWorld;
const failures: Array<{ id: string; attempt: number; final: boolean; message: string }> = [];

beforeAll(async () => {
  world = await startInboxWorld({
    queue: 'throws',
    inbox: { retry: { attempts: 2, backoffMs: 50 } },
    worker: {
      concurrency: 5,
      // Long locks and stalled checks: a run that is not counted would only come back after 30 s.
      lockDurationMs: 30_000,
      stalledIntervalMs: 30_000,
      handler: ({ payload }) => Promise.reject(THROWN[payload!.submission_id]!()),
      onFailure: ({ id, attempt, final, error }) => failures.push({ id, attempt, final, message: error.message }),
    },
  });
});

afterAll(() => world?.close());

describe('a handler that fails without a proper Error', () => {
  it('fails the attempt at once, retries, and dead-letters with a reason that says what was thrown', async () => {
    const deliveries = await Promise.all(Object.keys(THROWN).map((id) => signedDelivery(Number(id))));
    const ids: string[] = [];
    for (const delivery of deliveries) {
      const posted = await postDelivery(world.url, delivery);
      expect(posted.status).toBe(202);
      ids.push(posted.body.id!);
    }
    await until(
      'every delivery to be dead-lettered after its two attempts',
      () => failures.filter((f) => f.final).length === deliveries.length,
      { timeoutMs: 10_000 },
    );
    for (const id of ids) {
      expect(failures.filter((f) => f.id === id).map((f) => [f.attempt, f.final])).toEqual([
        [1, false],
        [2, true],
      ]);
    }

    const { code, out } = await world.cli('failed', '--json');
    expect(code).toBe(0);
    const reasons = Object.fromEntries(
      (JSON.parse(out) as Array<{ submissionId: number; failedReason: string; attemptsMade: number }>).map((row) => [
        row.submissionId,
        row,
      ]),
    );
    expect(reasons[1]).toMatchObject({
      attemptsMade: 2,
      failedReason: 'The handler failed with null instead of an Error: throw an Error that says what went wrong.',
    });
    expect(reasons[2]).toMatchObject({
      attemptsMade: 2,
      failedReason: 'The handler failed with undefined instead of an Error: throw an Error that says what went wrong.',
    });
    expect(reasons[3]).toMatchObject({ attemptsMade: 2, failedReason: 'the CRM said no' });
    expect(reasons[4]!.failedReason).toMatch(/^The handler threw an Error \(Error\) whose message could not be read/);
    expect(reasons[5]!.failedReason).toBe(
      'The handler failed with object {"code":"E_CRM","retryable":false} instead of an Error: throw an Error that says what went wrong.',
    );
  });
});
