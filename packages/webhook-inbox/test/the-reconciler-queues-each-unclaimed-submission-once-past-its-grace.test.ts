// The reconciler against a form's list served over HTTP on 127.0.0.1 (newest first, page numbers,
// as the service's): it queues only submissions no delivery claimed and older than the grace, once
// however the pages shift, a dry run queues nothing and keeps the watermark, each walk stops at the
// watermark less the lookback, and a webhook arriving after the reconciler took its submission
// still runs, as not the first of it.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFormsClient } from '@forms-api/client';
import { listen, until } from '@forms-api/test-support';
import { createReconciler, inboxMetrics, type InboxDelivery, type Reconciler } from '../src/index.js';
import { storeReconciled } from '../src/delivery.js';
import { deliveryBody, postDelivery, SECRET } from './support/deliveries.js';
import { startInboxWorld, type InboxWorld } from './support/world.js';
import { sign } from '@forms-api/webhook-verify';

const FORM = 11;
const NAME_FIELD = 'f1a2b3c4-0000-4000-8000-000000000001';
const GRACE_MS = 60_000;

interface Listed {
  id: number;
  createdAt: number;
}

/** The form's completed submissions, newest first, and what each request asked. */
const submissions: Listed[] = [];
const requests: Array<{ page: number; status: string | null }> = [];
const formReads = new Map<number, number>();
/** Answers to a field the form no longer has, by submission id. */
const removedFieldAnswers = new Set<number>();
/** Called on every list request, before it is answered: a submission arriving mid-walk. */
let onListRequest: (() => void) | undefined;
let api: Server;
/** `http://127.0.0.1:<port>`: the form's list served by `api`. */
let apiUrl: string;
let world: InboxWorld;
const runs: InboxDelivery[] = [];
const reconcilers: Reconciler[] = [];

const serviceTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const add = (id: number, ageMs: number) => {
  submissions.push({ id, createdAt: Date.now() - ageMs });
  submissions.sort((a, b) => b.createdAt - a.createdAt);
};
const item = ({ id, createdAt }: Listed) => ({
  data: {
    [NAME_FIELD]: `Ada ${id}`,
    ...(removedFieldAnswers.has(id) ? { 'f-removed-from-the-form': 'kept by the service' } : {}),
    status: 'completed' as const,
    created_at: serviceTime(createdAt),
    id,
    submission_id: `0b7c0000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  },
  completion_time: 12,
  form_id: FORM,
  id,
  submission_id: `0b7c0000-0000-4000-8000-${String(id).padStart(12, '0')}`,
});

beforeAll(async () => {
  api = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.setHeader('content-type', 'application/json');
    const formId = Number(/^\/open\/forms\/(\d+)/.exec(url.pathname)?.[1]);
    if (url.pathname === `/open/forms/${formId}`) {
      formReads.set(formId, (formReads.get(formId) ?? 0) + 1);
      res.end(JSON.stringify({ id: formId, properties: [{ id: NAME_FIELD, name: 'Name', type: 'text' }] }));
      return;
    }
    if (url.pathname !== `/open/forms/${formId}/submissions`) return void res.writeHead(404).end('{}');
    // Other forms than FORM have no submissions.
    const list = formId === FORM ? submissions : [];
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 100);
    requests.push({ page, status: url.searchParams.get('status') });
    onListRequest?.();
    const slice = list.slice((page - 1) * perPage, page * perPage);
    const lastPage = Math.max(1, Math.ceil(list.length / perPage));
    res.end(
      JSON.stringify({
        data: slice.map(item),
        links: { first: null, last: null, prev: null, next: null },
        meta: {
          current_page: page,
          from: null,
          last_page: lastPage,
          links: [],
          path: '',
          per_page: perPage,
          to: null,
          total: list.length,
        },
      }),
    );
  });
  ({ url: apiUrl } = await listen(api));
  world = await startInboxWorld({ queue: 'reconcile-unit', worker: { handler: (d) => void runs.push(d) } });
});

afterAll(async () => {
  await Promise.all(reconcilers.map((r) => r.close()));
  await world?.close();
  await new Promise((resolve) => api?.close(resolve));
});

async function reconciler(
  options: {
    perPage?: number;
    lookbackMs?: number;
    forms?: number[];
    queue?: string;
    requestBudget?: { requests: number; windowMs: number };
  } = {},
): Promise<Reconciler> {
  const created = await createReconciler({
    connection: world.redis.url,
    queue: 'reconcile-unit',
    client: createFormsClient({
      baseUrl: apiUrl,
      token: 'test-token-0123456789',
    }),
    forms: [],
    graceMs: GRACE_MS,
    requestBudget: { requests: 1_000, windowMs: 1_000 },
    onError: () => {},
    ...options,
  });
  reconcilers.push(created);
  return created;
}

const webhook = async (submissionId: number) => {
  const body = deliveryBody(submissionId);
  expect((await postDelivery(world.url, { body, signature: await sign(SECRET, body) })).status).toBe(202);
};

describe('the reconciler', () => {
  it('in a dry run lists what nobody claimed past the grace, queues nothing and keeps no watermark', async () => {
    add(101, 5 * 60_000); // its webhook arrives
    add(102, 4 * 60_000); // its webhook was lost
    add(103, 10_000); // within the grace: its webhook may still come
    await webhook(101);
    await until('the webhook to run', () => runs.length === 1);
    const r = await reconciler();
    const report = await r.catchUp(FORM, { since: new Date(Date.now() - 10 * 60_000), dryRun: true });
    expect(report.recovered.map((found) => found.key)).toEqual(['11:102']);
    expect(report.dryRun).toBe(true);
    expect((await r.state(FORM)).watermark).toBeNull();
    expect(await world.queue.getJob('rc-11-102')).toBeUndefined();
    // Only completed submissions: partial ones never fire a webhook.
    expect(requests.every((request) => request.status === 'completed')).toBe(true);
  });

  it('queues each unclaimed submission once, with its answers named, and advances the watermark', async () => {
    const r = await reconciler();
    const report = await r.catchUp(FORM, { since: new Date(Date.now() - 10 * 60_000) });
    expect(report.recovered.map((found) => found.key)).toEqual(['11:102']);
    await until('the recovered submission to run', () => runs.length === 2);
    const recovered = runs[1]!;
    expect(recovered).toMatchObject({
      id: 'rc-11-102',
      origin: 'reconcile',
      firstOfSubmission: true,
      submissionKey: '11:102',
      payload: null,
    });
    expect(recovered.submission!.answers[NAME_FIELD]).toMatchObject({ name: 'Name', type: 'text', value: 'Ada 102' });
    expect(runs[0]).toMatchObject({ origin: 'webhook', firstOfSubmission: true, submissionKey: '11:101' });
    const { watermark, recovered: count } = await r.state(FORM);
    expect(Date.parse(watermark!)).toBeGreaterThan(Date.now() - GRACE_MS - 60_000);
    expect(count).toBe(1);
    // Counted in the inbox's metrics too (the dry run before recovered nothing).
    expect((await inboxMetrics()).body).toMatch(/^forms_inbox_recovered_total\{queue="reconcile-unit"\} 1$/m);

    // Again: everything is claimed now.
    expect((await r.catchUp(FORM)).recovered).toEqual([]);
  });

  it('runs a webhook that arrives after the reconciler took its submission, as not the first of it', async () => {
    await webhook(102);
    await until('the late webhook to run', () => runs.length === 3);
    expect(runs[2]).toMatchObject({ origin: 'webhook', firstOfSubmission: false, submissionKey: '11:102' });
  });

  it('does not run a reconciled job whose submission a webhook claimed before it ran', async () => {
    await webhook(500);
    await until('the webhook to run', () => runs.some((run) => run.submissionKey === '11:500'));
    // As if the reconciler had queued it just before the webhook was stored and claimed it.
    const fields = new Map([[NAME_FIELD, { name: 'Name', type: 'text' }]]);
    await world.queue.add(
      'submission.created',
      storeReconciled(item({ id: 500, createdAt: Date.now() }), fields, Date.now()),
      {
        jobId: 'rc-11-500',
      },
    );
    await until(
      'the reconciled job to finish',
      async () => (await world.queue.getJob('rc-11-500'))?.finishedOn !== undefined,
    );
    const job = await world.queue.getJob('rc-11-500');
    expect(job!.returnvalue).toMatchObject({ skipped: 'claimed' });
    expect(runs.filter((run) => run.submissionKey === '11:500')).toHaveLength(1);
  });

  it('takes each submission once when new ones push the pages under the walk', async () => {
    for (let id = 200; id < 220; id++) add(id, 2 * 60_000 + (id - 200) * 1_000);
    let next = 900;
    onListRequest = () => add(next++, 0); // a new answer before each page: the rest shift by one
    try {
      const r = await reconciler({ perPage: 3 });
      const report = await r.catchUp(FORM, { since: new Date(Date.now() - 3 * 60_000), dryRun: true });
      const keys = report.recovered.map((found) => found.key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `11:${200 + i}`).sort());
    } finally {
      onListRequest = undefined;
    }
  });

  it('reads the form again for a field it does not know, but not on every page for a field it no longer has', async () => {
    for (const id of [210, 214, 218]) removedFieldAnswers.add(id);
    // One reconciler alone, so one cache of the form's fields takes every step.
    await Promise.all(reconcilers.splice(0).map((other) => other.close()));
    try {
      const r = await reconciler({ perPage: 3 });
      const before = formReads.get(FORM) ?? 0;
      const report = await r.catchUp(FORM, { since: new Date(Date.now() - 3 * 60_000), dryRun: true });
      expect(report.pages).toBeGreaterThan(5);
      // One read for the process's first page, one when the removed field first shows up.
      expect((formReads.get(FORM) ?? 0) - before).toBe(2);
    } finally {
      removedFieldAnswers.clear();
    }
  });

  it('stops each walk at the watermark less the lookback, where a partial completed later is still found', async () => {
    const r = await reconciler({ lookbackMs: 30 * 60_000 });
    // The walks so far queued 102 only; set the watermark by walking everything once.
    await r.catchUp(FORM, { since: new Date(Date.now() - 10 * 60_000) });
    const recoveredBefore = runs.length;
    await until('the walk to run its submissions', () => runs.filter((run) => run.origin === 'reconcile').length >= 21);
    const { watermark } = await r.state(FORM);
    // A partial submission started 20 minutes before the watermark and completed now keeps its time;
    // one 40 minutes before is beyond the lookback.
    add(300, Date.now() - Date.parse(watermark!) + 20 * 60_000);
    add(301, Date.now() - Date.parse(watermark!) + 40 * 60_000);
    const report = await r.catchUp(FORM);
    expect(report.recovered.map((found) => found.key)).toEqual(['11:300']);
    expect(recoveredBefore).toBeGreaterThan(0);
  });

  it('runs from the command line: a dry run lists, a run queues, stats tells where each form stands', async () => {
    add(400, 3 * 60_000);
    process.env.FORMS_API_TOKEN = 'test-token-0123456789';
    try {
      const dry = await world.cli('reconcile', '--form', '11', '--since', '10m', '--dry-run', '--base-url', apiUrl);
      expect(dry).toMatchObject({ code: 0, err: '' });
      expect(dry.out).toMatch(
        /^11:400 {2}created \S+\nwould queue 1 submission of form 11 .*\(unchanged: dry run\)\n$/,
      );
      expect(await world.queue.getJob('rc-11-400')).toBeUndefined();

      const run = await world.cli('reconcile', '--form', '11', '--since', '10m', '--base-url', apiUrl, '--json');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.out).recovered.map((found: { key: string }) => found.key)).toEqual(['11:400']);
      await until('the recovered submission to run', () => runs.some((r) => r.id === 'rc-11-400'));

      const stats = await world.cli('stats', '--json');
      const [state] = JSON.parse(stats.out).reconcile;
      expect(state).toMatchObject({ form: 11 });
      expect(state.recovered).toBeGreaterThanOrEqual(23);
      expect(state.requests).toBeGreaterThan(0);
      expect((await world.cli('stats')).out).toMatch(/reconciler, form 11: every submission up to \S+ looked at/);

      expect((await world.cli('reconcile', '--base-url', apiUrl)).code).toBe(2);
      delete process.env.FORMS_API_TOKEN;
      const noToken = await world.cli('reconcile', '--form', '11', '--base-url', apiUrl);
      expect(noToken.code).toBe(2);
      expect(noToken.err).toMatch(/FORMS_API_TOKEN/);
    } finally {
      delete process.env.FORMS_API_TOKEN;
    }
  });

  it('spends the request budget on walks only: the ticks of many forms do not starve them', async () => {
    // Ten forms scheduled at once and a budget of five a minute (BullMQ's window is fixed): had the
    // ticks taken budget, the first walk would wait for the next window, a minute away.
    const forms = Array.from({ length: 10 }, (_, i) => 31 + i);
    // A queue of its own: a rate limiter's window and limit are per queue, and BullMQ applies the
    // limit of whichever worker fetches.
    const r = await reconciler({ queue: 'reconcile-budget', forms, requestBudget: { requests: 5, windowMs: 60_000 } });
    await until('five walks to end', async () => {
      const states = await Promise.all(forms.map((form) => r.state(form)));
      return states.filter((state) => state.watermark !== null).length >= 5;
    });
    // And the budget holds them: the other walks wait for the next window.
    const states = await Promise.all(forms.map((form) => r.state(form)));
    expect(states.filter((state) => state.watermark !== null).length).toBeLessThan(forms.length);
  });
});
