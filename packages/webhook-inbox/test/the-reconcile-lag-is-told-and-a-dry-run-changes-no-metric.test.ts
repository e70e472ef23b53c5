// How late a lost webhook's submission may be is told per form: the lag (now less the watermark:
// every submission older than it was looked at) in `state`, in `stats` (text and JSON) and as the
// gauge forms_inbox_reconcile_lag_seconds of the one metrics table (Prometheus and OpenTelemetry).
// A dry run queues nothing and changes no metric.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inboxMetrics, type Reconciler } from '../src/index.js';
import { serveListedForm, type ListedForm } from './support/listed-form.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const QUEUE = 'reconcile-lag';
const FORM = 13;
const GRACE_MS = 60_000;
let world: InboxWorld;
let listed: ListedForm;
let reconciler: Reconciler;

beforeAll(async () => {
  world = await startInboxWorld({ queue: QUEUE });
  listed = await serveListedForm(FORM);
  for (let id = 1; id <= 3; id++) listed.add(id, 5 * 60_000 + id * 1_000);
  reconciler = await listed.reconciler({
    connection: world.redis.url,
    queue: QUEUE,
    forms: [],
    graceMs: GRACE_MS,
    requestBudget: { requests: 1_000, windowMs: 1_000 },
  });
});

afterAll(async () => {
  await listed?.close();
  await world?.close();
});

const reconcileLines = async () =>
  (await inboxMetrics()).body
    .split('\n')
    .filter((line) => /^forms_inbox_(reconciled|recovered)_total\{/.test(line) && line.includes(`queue="${QUEUE}"`));

it('changes no metric in a dry run', async () => {
  const before = await reconcileLines();
  const report = await reconciler.catchUp(FORM, { since: new Date(Date.now() - 60 * 60_000), dryRun: true });
  expect(report.recovered).toHaveLength(3);
  expect(await reconcileLines()).toEqual(before);
  expect((await reconciler.state(FORM)).lagMs).toBeNull();
});

it('tells each form’s lag, now less its watermark, in state, stats and the metrics', async () => {
  const walkStarted = Date.now();
  await reconciler.catchUp(FORM, { since: new Date(Date.now() - 60 * 60_000) });
  const state = await reconciler.state(FORM);
  const told = Date.now();
  // The watermark is the walk's start less the grace: the lag is at least the grace, and grows with time.
  expect(state.lagMs).toBeGreaterThanOrEqual(GRACE_MS);
  expect(Date.parse(state.watermark!)).toBeGreaterThanOrEqual(walkStarted - GRACE_MS);
  expect(state.lagMs).toBeLessThanOrEqual(told - Date.parse(state.watermark!));

  const json = JSON.parse((await world.cli('stats', '--json')).out);
  const [stats] = json.reconcile;
  expect(stats).toMatchObject({ form: FORM, watermark: state.watermark });
  expect(stats.lagMs).toBeGreaterThanOrEqual(state.lagMs!);
  expect((await world.cli('stats')).out).toMatch(new RegExp(`reconciler, form ${FORM}: .*\\(lag \\d+ s: `));

  const metrics = (await inboxMetrics()).body;
  const gauge = new RegExp(`^forms_inbox_reconcile_lag_seconds\\{queue="${QUEUE}",form="${FORM}"\\} (\\S+)$`, 'm').exec(
    metrics,
  );
  expect(gauge, metrics).not.toBeNull();
  expect(Number(gauge![1])).toBeGreaterThanOrEqual(state.lagMs! / 1000);
  expect(metrics).toMatch(new RegExp(`^forms_inbox_recovered_total\\{queue="${QUEUE}"\\} 3$`, 'm'));
});
