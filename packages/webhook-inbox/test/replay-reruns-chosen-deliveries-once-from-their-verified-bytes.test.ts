// `inbox replay` against a real Redis, with deliveries received over HTTP and a real worker: it
// chooses by status, time range and form; re-verifies the stored bytes against the secrets given
// now (skipping, with the reason, what does not verify or has no bytes left); sends each chosen
// delivery back once, even with two replays at the same moment; and a dry run changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '@forms-api/webhook-verify';
import { until } from '@forms-api/test-support';
import { deliveryBody, postDelivery, SECRET } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const OLD_SECRET = 'whsec_the_secret_before_rotation_00';
let world: InboxWorld;
let failing = true;
let gate: Promise<void> | undefined;
const runs: Array<{ id: string; submissionId: number; attempt: number }> = [];

beforeAll(async () => {
  // Receivers verify with [new, old] while rotating: deliveries signed under either are queued.
  world = await startInboxWorld({
    queue: 'replay',
    path: '/webhooks/forms',
    inbox: { secret: [SECRET, OLD_SECRET], retry: { attempts: 1, backoffMs: 10 } },
    worker: {
      concurrency: 8,
      onFailure: () => {},
      async handler({ id, payload, attempt }) {
        runs.push({ id, submissionId: payload!.submission_id, attempt });
        await gate;
        if (failing) throw new Error('the CRM is down');
      },
    },
  });
});

afterAll(() => world?.close());

async function cli(...args: string[]) {
  const run = await world.cli('replay', ...args);
  expect(run.out + run.err).not.toContain(SECRET);
  expect(run.out + run.err).not.toContain(OLD_SECRET);
  return run;
}

/** A delivery of `formId`, signed with `secret`, posted to the receiver; its job id. */
async function deliver(formId: number, submissionId: number, secret = SECRET): Promise<string> {
  const body = deliveryBody(submissionId).replace('"form_id":11', `"form_id":${formId}`);
  const answer = await postDelivery(world.url, { body, signature: await sign(secret, body) });
  expect(answer.status).toBe(202);
  return answer.body.id!;
}

const runsOf = (id: string) => runs.filter((r) => r.id === id).length;
const ids: Record<number, string> = {};
let received: { start: string; middle: string; end: string };
/** The failed deliveries of form 11 received before `middle`: submissions 1, 2 and 3. */
const firstFailed = () => ['--status', 'failed', '--form', '11', '--since', received.start, '--until', received.middle];
const BOTH_SECRETS = ['--secret', SECRET, '--secret', OLD_SECRET];

describe('inbox replay', () => {
  it('setup: seven deliveries of two forms, at two moments, all dead letters', async () => {
    const start = new Date(Date.now() - 1).toISOString();
    for (const [form, submission] of [
      [11, 1],
      [11, 2],
      [12, 4],
      [12, 5],
    ] as const)
      ids[submission] = await deliver(form, submission);
    ids[3] = await deliver(11, 3, OLD_SECRET); // signed before the rotation
    // Two distinct receive times: the clock has moved past the last delivery's millisecond.
    const last = Date.now();
    await until('the clock to move on', () => Date.now() > last);
    const middle = new Date().toISOString();
    for (const submission of [6, 7]) ids[submission] = await deliver(11, submission);
    received = { start, middle, end: new Date(Date.now() + 1).toISOString() };
    await until('seven dead letters', async () => (await world.queue.getFailedCount()) === 7);
  });

  it('--dry-run lists the chosen deliveries (status, range, form) and changes nothing', async () => {
    const result = await cli(...firstFailed(), '--dry-run', ...BOTH_SECRETS, '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.out) as {
      dryRun: boolean;
      deliveries: Array<{ id: string; action: string; formId: number; submissionId: number }>;
    };
    expect(report.dryRun).toBe(true);
    expect(report.deliveries.map((d) => [d.submissionId, d.formId, d.action, d.id]).sort()).toEqual([
      [1, 11, 'replay', ids[1]],
      [2, 11, 'replay', ids[2]],
      [3, 11, 'replay', ids[3]],
    ]);
    expect(await world.queue.getFailedCount()).toBe(7);
    const text = await cli(...firstFailed(), '--dry-run', ...BOTH_SECRETS);
    expect(text.out).toContain(`would replay ${ids[1]}  form 11 submission 1`);
    expect(text.out).toContain('3 deliveries would be replayed; nothing was changed (--dry-run).');
  });

  it('skips, with the reason and exit 1, deliveries whose stored bytes do not verify against the secrets given now', async () => {
    // The old secret is no longer given: submission 3 was signed with it.
    const result = await cli(
      '--status',
      'failed',
      '--form',
      '11',
      '--until',
      received.middle,
      '--dry-run',
      '--secret',
      SECRET,
    );
    expect(result.code).toBe(1);
    expect(result.out).toContain(`cannot replay ${ids[3]}  form 11 submission 3`);
    expect(result.out).toMatch(
      /signature_rejected: Its stored bytes do not verify against the configured secret\(s\) \(signature_mismatch\)/,
    );
    expect(result.err).toContain('1 of 3 chosen deliveries cannot be replayed.');
  });

  it('replays each chosen delivery once, with its own id, even when two replays run at the same moment', async () => {
    failing = false;
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const runsBefore = runs.length;
    const args = [...firstFailed(), ...BOTH_SECRETS, '--json'];
    const [a, b] = await Promise.all([cli(...args), cli(...args)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const outcomes = [a, b].flatMap(
      (r) => (JSON.parse(r.out) as { deliveries: Array<{ id: string; action: string; reason?: string }> }).deliveries,
    );
    // Each of the three was sent back by exactly one of the two; the other found it already queued
    // (or, if it read the set after the first had emptied it, did not choose it at all).
    for (const submission of [1, 2, 3]) {
      const of = outcomes.filter((o) => o.id === ids[submission]).map((o) => o.reason ?? o.action);
      expect(of.filter((x) => x === 'replayed')).toHaveLength(1);
      expect(of.filter((x) => x !== 'replayed')).toEqual(of.length === 2 ? ['no_longer_finished'] : []);
    }
    await until('three replays running', () => runs.length - runsBefore === 3);
    // While they wait or run, another replay does not queue them again.
    const again = await cli(...args.filter((x) => x !== '--json'));
    expect(again.code).toBe(0);
    expect(again.out).toContain('No failed deliveries match.');
    open();
    await until('three completed', async () => (await world.queue.getCompletedCount()) === 3);
    expect(
      runs
        .slice(runsBefore)
        .map((r) => [r.submissionId, r.attempt])
        .sort(),
    ).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    for (const submission of [1, 2, 3]) expect(runsOf(ids[submission]!)).toBe(2); // the failed run, the replay
    // Nothing else moved: form 12 and the later ones are still dead letters.
    expect((await world.queue.getFailed(0, -1)).map((j) => j.id).sort()).toEqual(
      [ids[4], ids[5], ids[6], ids[7]].sort(),
    );
    gate = undefined;
  });

  it('--status completed runs completed deliveries again from their kept bytes', async () => {
    // Completed jobs keep their bodies within the workers' byte budget (64 MiB by default).
    for (const submission of [1, 2, 3])
      expect(typeof ((await world.queue.getJob(ids[submission]!))!.data as { body?: unknown }).body).toBe('string');
    const result = await cli('--status', 'completed', '--form', '11', '--secret', SECRET, '--secret', OLD_SECRET);
    expect(result.code).toBe(0);
    expect(result.out).toContain('3 deliveries sent back to the queue.');
    await until('the three run a third time', () => [1, 2, 3].every((s) => runsOf(ids[s]!) === 3));
    await until('three completed again', async () => (await world.queue.getCompletedCount()) === 3);
  });

  it('says which completed deliveries cannot be replayed because their bytes were not kept', async () => {
    // As the completed body budget leaves a job whose body it dropped (the budget itself is tested
    // in completed-deliveries-keep-their-bodies-within-a-byte-budget).
    const job = (await world.queue.getJob(ids[2]!))!;
    await job.updateData({ ...(job.data as Record<string, unknown>), body: null });
    const result = await cli(
      '--status',
      'completed',
      '--form',
      '11',
      '--dry-run',
      '--secret',
      SECRET,
      '--secret',
      OLD_SECRET,
      '--json',
    );
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out) as {
      deliveries: Array<{ id: string; action: string; reason?: string; detail?: string }>;
    };
    const of = (submission: number) => report.deliveries.find((d) => d.id === ids[submission]);
    expect(of(2)).toMatchObject({ action: 'skipped', reason: 'body_not_kept' });
    expect(of(2)!.detail).toContain('Its raw body is no longer stored');
    // The others still have their bytes: replayable.
    for (const submission of [1, 3]) expect(of(submission)).toMatchObject({ action: 'replay' });
    expect(await world.queue.getCompletedCount()).toBe(3);
  });

  it('refuses unclear requests with exit 2 and the fix', async () => {
    const noStatus = await cli('--secret', SECRET);
    expect([noStatus.code, noStatus.err]).toEqual([
      2,
      'replay needs --status failed (the dead letters) or --status completed.\n',
    ]);
    const badSince = await cli('--status', 'failed', '--since', 'yesterday', '--secret', SECRET);
    expect(badSince.code).toBe(2);
    expect(badSince.err).toContain(
      '--since must be an ISO date-time such as 2026-11-24T09:00:00Z, or an age such as 30m, 6h or 2d (got "yesterday").',
    );
    const backwards = await cli('--status', 'failed', '--since', '1h', '--until', '2h', '--secret', SECRET);
    expect([backwards.code, backwards.err]).toEqual([2, '--since must be earlier than --until.\n']);
    const badForm = await cli('--status', 'failed', '--form', 'contact', '--secret', SECRET);
    expect(badForm.code).toBe(2);
    const saved = process.env.FORMS_WEBHOOK_SECRET;
    delete process.env.FORMS_WEBHOOK_SECRET;
    try {
      const noSecret = await cli('--status', 'failed');
      expect(noSecret.code).toBe(2);
      expect(noSecret.err).toContain('pass --secret (twice while rotating) or set FORMS_WEBHOOK_SECRET');
    } finally {
      if (saved !== undefined) process.env.FORMS_WEBHOOK_SECRET = saved;
    }
    // An age: the last hour holds every delivery of this file.
    const lastHour = await cli('--status', 'failed', '--since', '1h', '--dry-run', '--secret', SECRET);
    expect(lastHour.out).toContain('4 deliveries would be replayed');
  });
});
