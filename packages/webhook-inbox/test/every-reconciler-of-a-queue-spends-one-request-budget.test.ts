// Every reconciler of a queue spends one request budget, kept in Redis by the first of them: a
// second reconciler given none takes it (it used to apply the default, 30 a minute, to the steps
// its own worker fetched), and one given another budget is refused with `budget_mismatch`.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isInboxError } from '../src/index.js';
import { serveListedForm, type ListedForm } from './support/listed-form.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';

const QUEUE = 'one-budget';
const BUDGET = { requests: 2, windowMs: 1_500 };
const FORMS = Array.from({ length: 10 }, (_, i) => 61 + i);
let world: InboxWorld;
let listed: ListedForm;

beforeAll(async () => {
  world = await startInboxWorld({ queue: QUEUE });
  listed = await serveListedForm(60); // the forms walked here have no submissions: one page each
});

afterAll(async () => {
  await listed?.close();
  await world?.close();
});

it('holds two reconcilers of a queue to the one budget the first set, and refuses another', async () => {
  const first = await listed.reconciler({
    connection: world.redis.url,
    queue: QUEUE,
    forms: [],
    requestBudget: BUDGET,
  });
  const second = await listed.reconciler({ connection: world.redis.url, queue: QUEUE, forms: [] });
  // Both processes' workers take the steps of these walks.
  await Promise.all(FORMS.map((form, i) => (i % 2 ? first : second).catchUp(form)));
  const times = listed.requests.filter((request) => FORMS.includes(request.form)).map((request) => request.at);
  expect(times).toHaveLength(FORMS.length);
  // BullMQ's window is fixed, so any span of one window may straddle two of them: at most twice
  // the budget, where the second reconciler's own default (30) let all ten through at once.
  const most = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + BUDGET.windowMs).length));
  expect(most).toBeLessThanOrEqual(2 * BUDGET.requests);

  const refused = await listed
    .reconciler({
      connection: world.redis.url,
      queue: QUEUE,
      forms: [],
      requestBudget: { requests: 30, windowMs: 60_000 },
    })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(isInboxError(refused) && refused.kind).toBe('budget_mismatch');
  expect((refused as Error).message).toMatch(/2 per 1500 ms.*30 per 60000 ms.*same `requestBudget`/s);
});
