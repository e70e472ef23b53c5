// A walk of a form's list (newest first, page numbers) takes every submission once while the pages
// shift under it: submissions deleted ahead of the walk pull the unread ones onto pages already
// read, which the walk reads again; and what the walk keeps to take each one once stays the same
// size however many pages it walks, where it grew by every id it met.
import { Queue } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RECONCILE_QUEUE } from '../src/reconciler.js';
import { inboxQueuePrefix } from '../src/queue-keys.js';
import { serveListedForm, type ListedForm } from './support/listed-form.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const QUEUE = 'walk-shift';
const FORM = 12;
let world: InboxWorld;
let listed: ListedForm;
let walks: Queue;

beforeAll(async () => {
  world = await startInboxWorld({ queue: QUEUE });
  listed = await serveListedForm(FORM);
  walks = new Queue(RECONCILE_QUEUE, {
    connection: { host: '127.0.0.1', port: world.redis.port },
    prefix: inboxQueuePrefix(QUEUE),
  });
});

afterAll(async () => {
  await listed?.close();
  await walks?.close();
  await world?.close();
});

const reconciler = (perPage: number) =>
  listed.reconciler({
    connection: world.redis.url,
    queue: QUEUE,
    forms: [],
    graceMs: 60_000,
    perPage,
    requestBudget: { requests: 100_000, windowMs: 1_000 },
  });

it('takes every submission still listed when deletions mid-walk pull unread ones onto pages already read', async () => {
  listed.submissions.length = 0;
  // 40 submissions a second apart, all past the grace, 5 a page: 8 pages.
  for (let id = 1; id <= 40; id++) listed.add(id, 5 * 60_000 + id * 1_000);
  const newest = listed.submissions.slice(0, 7).map((s) => s.id);
  // Before page 3 is answered, seven of the submissions page 1 held are deleted: the first seven
  // of the old page 3 move onto pages 1 and 2, already read.
  listed.onListRequest = (page) => {
    if (page === 3 && listed.submissions.some((s) => s.id === newest[0])) listed.remove(newest);
  };
  try {
    const r = await reconciler(5);
    const report = await r.catchUp(FORM, { since: new Date(Date.now() - 60 * 60_000), dryRun: true });
    const taken = report.recovered.map((found) => found.id);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  } finally {
    listed.onListRequest = undefined;
  }
});

it('keeps what it needs to take each submission once at the same size over many pages', async () => {
  listed.submissions.length = 0;
  // 240 submissions a second apart, 4 a page: 60 steps. Claimed, so the walk queues nothing and
  // its job data holds only what the walk keeps to take each submission once.
  for (let id = 1; id <= 240; id++) listed.add(id, 5 * 60_000 + id * 1_000);
  const claims = world.raw.pipeline();
  for (let id = 1; id <= 240; id++) claims.set(`${inboxQueuePrefix(QUEUE)}:submission:${FORM}:${id}`, 'wh-test');
  await claims.exec();
  const sizes: number[] = [];
  let next = 1_000;
  listed.onListRequest = async () => {
    listed.add(next++, 0); // and one arrives before each page: the rest shift down by one
    const [walk] = await walks.getJobs(['active']);
    if (walk) sizes.push(JSON.stringify(walk.data).length);
  };
  try {
    const r = await reconciler(4);
    const report = await r.catchUp(FORM, { since: new Date(Date.now() - 60 * 60_000) });
    expect(report.examined).toBe(240);
    expect(report.recovered).toEqual([]);
    expect(report.pages).toBeGreaterThanOrEqual(60);
    expect(sizes.length).toBeGreaterThanOrEqual(60);
    // The walk's data after its first step and at its last differ by a few digits (page, counts),
    // where a record of every id met grew by about four bytes a submission, nearly 1 KB here.
    expect(Math.max(...sizes) - sizes[1]!).toBeLessThan(64);
  } finally {
    listed.onListRequest = undefined;
  }
});
