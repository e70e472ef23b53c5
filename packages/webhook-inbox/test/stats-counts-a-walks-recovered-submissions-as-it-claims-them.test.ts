// The reconciler counts a recovered submission in Redis in the same step as it claims it: a long
// catch-up shows its progress in `stats` while it walks, and a walk step that fails after claiming
// loses no count (its retry finds the submissions claimed and takes them no more). It counted a
// walk's submissions only when the whole walk ended.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inboxQueuePrefix } from '../src/queue-keys.js';
import { serveListedForm, type ListedForm } from './support/listed-form.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const QUEUE = 'recovered-count';
const FORM = 14;
let world: InboxWorld;
let listed: ListedForm;

beforeAll(async () => {
  world = await startInboxWorld({ queue: QUEUE });
  listed = await serveListedForm(FORM);
});

afterAll(async () => {
  await listed?.close();
  await world?.close();
});

it('counts what a walk queued so far while the walk is still under way, and each submission once', async () => {
  // 20 submissions past the grace, 5 a page; two already brought by webhooks.
  for (let id = 1; id <= 20; id++) listed.add(id, 5 * 60_000 + id * 1_000);
  for (const id of [3, 17]) await world.raw.set(`${inboxQueuePrefix(QUEUE)}:submission:${FORM}:${id}`, `wh-${id}`);
  const r = await listed.reconciler({
    connection: world.redis.url,
    queue: QUEUE,
    forms: [],
    graceMs: 60_000,
    perPage: 5,
    requestBudget: { requests: 100_000, windowMs: 1_000 },
  });
  const midWalk: number[] = [];
  // Before pages 3 and 4 are answered, pages 1 and 2 (then 3) have been queued.
  listed.onListRequest = async (page) => {
    if (page === 3 || page === 4) midWalk.push((await r.state(FORM)).recovered);
  };
  try {
    const report = await r.catchUp(FORM, { since: new Date(Date.now() - 60 * 60_000) });
    expect(report.recovered).toHaveLength(18);
    // Newest first: pages 1 and 2 hold ids 20 to 11, 17 among them; page 3 holds 10 to 6.
    expect(midWalk).toEqual([9, 14]);
    expect((await r.state(FORM)).recovered).toBe(18);
    // A second walk over the same range finds every submission claimed: nothing counted twice.
    await r.catchUp(FORM, { since: new Date(Date.now() - 60 * 60_000) });
    expect((await r.state(FORM)).recovered).toBe(18);
  } finally {
    listed.onListRequest = undefined;
  }
});
