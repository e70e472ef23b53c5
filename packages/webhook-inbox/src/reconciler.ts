// The reconciler: finds the submissions whose webhook never reached a receiver (the service sends
// each once, 5 s timeout, no retry) by walking each watched form's list newest first, and queues
// each one nobody claimed as a job of the inbox's own queue, so the same worker and handler run it.
// Scheduling, one walk per form at a time and the request budget are BullMQ's: a job scheduler per
// form, a walk job with a fixed id, and the global rate limit of the reconcile queue, kept in Redis
// and so one for every process.
import { DelayedError, Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { FormsClient } from '@forms-api/client';
import {
  firstPageMovedOnto,
  formFields,
  normaliseListedSubmission,
  unknownFieldIds,
  type FormFields,
} from '@forms-api/client/submissions';
import { claimed, claimKey, claimSubmission } from './claims.js';
import { createRedisClient, describeRedisError, type InboxConnection, type RedisClient } from './connection.js';
import { storeReconciled, type ListedSubmission } from './delivery.js';
import { InboxError } from './errors.js';
import { jobOptionsFor, outageReporter } from './inbox.js';
import { printable } from '@forms-api/internal/printable';
import { assertKnownOptions, assertPositiveInteger } from './options.js';
import {
  DEFAULT_DEDUPE_WINDOW_MS,
  DEFAULT_QUEUE,
  DELIVERY_JOB_NAME,
  type RetentionPolicy,
  type RetryPolicy,
} from './policy.js';
import { inboxQueuePrefix } from './queue-keys.js';
import { observeReconcileLag, recordReconciled } from './telemetry/metrics.js';

/** Pages one walk may list, pages read again included (the client's own page cap). */
const MAX_WALK_PAGES = 10_000;
/** The BullMQ queue of the walks, rate-limited, beside the deliveries' under the same prefix. */
export const RECONCILE_QUEUE = 'reconcile';
/**
 * The queue of the schedulers' ticks, apart from the walks so that ticks spend none of the request
 * budget (with many forms they would otherwise starve the walks).
 */
export const RECONCILE_TICKS_QUEUE = 'reconcile-ticks';
/** How often each form is walked. */
export const DEFAULT_RECONCILE_INTERVAL_MS = 60_000;
/**
 * List requests the reconcilers of a deployment make in all, per window: 30 a minute, under a
 * third of the service's 100 a minute per user, leaving the rest to the application's own calls.
 */
export const DEFAULT_REQUEST_BUDGET = { requests: 30, windowMs: 60_000 } as const;
/** A submission younger than this is left to its webhook (sent once, within 5 s of the answer). */
export const DEFAULT_GRACE_MS = 60_000;
/**
 * How far behind the watermark each walk looks again. The list is ordered by `created_at`, and a
 * partial submission completed later keeps its earlier time: only a walk reaching back to it finds it.
 */
export const DEFAULT_LOOKBACK_MS = 60 * 60 * 1000;

export interface ReconcilerOptions {
  /** Where Redis is: the inbox's. */
  connection: InboxConnection;
  /** A client of the forms API (`createFormsClient` of `@forms-api/client`) with a token that may read the forms' submissions. */
  client: Pick<FormsClient, 'forms' | 'submissions'>;
  /** The forms to watch: a job scheduler each. Several processes may name the same forms. */
  forms: readonly number[];
  /** The inbox's queue (default `forms-webhooks`): reconciled submissions become its jobs. */
  queue?: string;
  /** How often each form is walked. Default 60,000 ms. */
  intervalMs?: number;
  /**
   * The walk steps every reconciler of the queue may take in all per `windowMs` (BullMQ's global
   * rate limit of the reconcile queue, kept in Redis): a step lists one page, and reads the form too
   * when its fields are first needed or change. The first reconciler of a queue sets it; one given
   * another budget is refused (`budget_mismatch`), one given none takes the one set. Default 30 a minute.
   */
  requestBudget?: { requests: number; windowMs: number };
  /** Only submissions older than this are taken, so a webhook on its way arrives first. Default 60,000 ms. */
  graceMs?: number;
  /** How far behind the watermark each walk looks again (partial submissions completed later). Default one hour. */
  lookbackMs?: number;
  /**
   * How long a claim on a submission lasts: within it, a submission is queued once whatever
   * brings it. Default the inbox's deduplication window (7 days); give the inbox's `dedupeWindowMs`.
   */
  claimWindowMs?: number;
  /** Submissions per list page, 1 to 100. Default 100. */
  perPage?: number;
  /** Runs and backoff of the reconciled deliveries, as the inbox's `retry`. */
  retry?: RetryPolicy;
  /** How long their finished jobs stay, as the inbox's `retention`. */
  retention?: RetentionPolicy;
  /** Run a reconcile worker in this process (default true); false only schedules and answers `catchUp`. */
  work?: boolean;
  /** Called once when Redis becomes unreachable. Default: one stderr line. */
  onRedisError?: (error: Error) => void;
  /** Called when a walk step fails (the API or Redis); it is retried. Default: one stderr line. */
  onError?: (error: Error) => void;
}

/** What a walk did: the submissions it queued (or, in a dry run, would queue). */
export interface ReconcileReport {
  form: number;
  dryRun: boolean;
  /** Pages listed. */
  pages: number;
  /** Listed submissions looked at (in range, once each). */
  examined: number;
  /** Submissions nobody had claimed: queued (or, in a dry run, to be queued), with their `created_at`. */
  recovered: Array<{ key: string; id: number; createdAt: string }>;
  /** The watermark after the walk (ISO), or null if none is kept yet. */
  watermark: string | null;
}

/** What Redis keeps of a form's reconciliation (CLI `stats`). */
export interface ReconcileState {
  form: number;
  /** Every submission created up to it was looked at (ISO). */
  watermark: string | null;
  lastRunAt: string | null;
  /** List and form requests made, in all. */
  requests: number;
  /** Submissions the reconciler queued and claimed before any webhook, in all (counted as each is claimed). */
  recovered: number;
  /**
   * Now less the watermark, in ms (null without one): every submission older than the lag was
   * looked at, and queued if no delivery had claimed it. It holds at about the grace plus up to an
   * interval and a walk; a lag that keeps growing means the walks fall behind (the budget, the API).
   */
  lagMs: number | null;
}

export interface Reconciler {
  readonly queue: string;
  /**
   * Walks one form now, down to `since` (default: its watermark less the lookback), through the
   * shared budget, and resolves with what it found. `dryRun` queues nothing and keeps the watermark.
   */
  catchUp(form: number, options?: { since?: Date; dryRun?: boolean }): Promise<ReconcileReport>;
  state(form: number): Promise<ReconcileState>;
  /** Stops this process's reconcile worker (the schedulers stay in Redis for the other processes). */
  close(): Promise<void>;
}

interface WalkData {
  form: number;
  /** The options of the process that started the walk: any reconcile worker of the queue may take a step. */
  settings: { perPage: number; graceMs: number; lookbackMs: number; claimWindowMs: number };
  dryRun: boolean;
  /** Lower bound (ms) of `created_at` to take; null: from the watermark less the lookback, read at the first step. */
  since: number | null;
  /** The page the next step lists. */
  page: number;
  /** Pages listed so far (a page read again counts again). */
  pages: number;
  /** The list's `meta.total` at the page before, to see items move back onto pages already read. */
  lastTotal: number | null;
  startedAt: number | null;
  cutoff: number | null;
  /**
   * The oldest `created_at` second taken so far and the ids taken in it: all a newest-first walk
   * needs to take each submission once (as the client's export watermark, walking the other way).
   * Anything newer was taken, or arrived behind the walk (the next walk's lookback finds it).
   */
  boundary: { time: number; ids: number[] } | null;
  examined: number;
  recovered: ReconcileReport['recovered'];
}

const RECONCILER_OPTIONS: Record<keyof ReconcilerOptions, true> = {
  connection: true,
  client: true,
  forms: true,
  queue: true,
  intervalMs: true,
  requestBudget: true,
  graceMs: true,
  lookbackMs: true,
  claimWindowMs: true,
  perPage: true,
  retry: true,
  retention: true,
  work: true,
  onRedisError: true,
  onError: true,
};

export async function createReconciler(options: ReconcilerOptions): Promise<Reconciler> {
  assertKnownOptions<ReconcilerOptions>(options, RECONCILER_OPTIONS, { where: 'createReconciler' });
  const api = options.client;
  if (!api || typeof api.submissions?.list !== 'function' || typeof api.forms?.get !== 'function')
    throw new InboxError(
      'invalid_option',
      '`client` must be a forms API client: `createFormsClient({ baseUrl, token })` from @forms-api/client.',
      { context: { option: 'client' } },
    );
  if (!Array.isArray(options.forms))
    throw new InboxError('invalid_option', '`forms` must be a list of form ids to watch (it may be empty).', {
      context: { option: 'forms' },
    });
  const forms = options.forms.map((form, i) => assertPositiveInteger(`forms[${i}]`, form));
  const queueName = options.queue ?? DEFAULT_QUEUE;
  const prefix = inboxQueuePrefix(queueName);
  const intervalMs = assertPositiveInteger('intervalMs', options.intervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS);
  const budget = options.requestBudget ?? DEFAULT_REQUEST_BUDGET;
  const budgetGiven = options.requestBudget !== undefined;
  const budgetRequests = assertPositiveInteger('requestBudget.requests', budget.requests);
  const budgetWindowMs = assertPositiveInteger('requestBudget.windowMs', budget.windowMs);
  const graceMs = assertPositiveInteger('graceMs', options.graceMs ?? DEFAULT_GRACE_MS, { allowZero: true });
  const lookbackMs = assertPositiveInteger('lookbackMs', options.lookbackMs ?? DEFAULT_LOOKBACK_MS, {
    allowZero: true,
  });
  const claimWindowMs = assertPositiveInteger('claimWindowMs', options.claimWindowMs ?? DEFAULT_DEDUPE_WINDOW_MS);
  const perPage = assertPositiveInteger('perPage', options.perPage ?? 100);
  if (perPage > 100)
    throw new InboxError(
      'invalid_option',
      `\`perPage\` must be 1 to 100, the service's largest page (got ${perPage}).`,
      {
        context: { option: 'perPage' },
      },
    );
  const deliveryOptions = jobOptionsFor(options.retry, options.retention);

  const client = createRedisClient(options.connection, 'worker');
  const reportError = outageReporter(
    client,
    options.onRedisError ??
      ((error) =>
        console.error(`[webhook-inbox] reconciler: ${describeRedisError(client, error)}; waiting for it to recover.`)),
  );
  const onError =
    options.onError ??
    // The API's words may be quoted in the message: escaped, so they cannot drive a terminal.
    ((error: Error) => console.error(`[webhook-inbox] reconciler: ${printable(error.message)}; retried.`));

  const deliveries = new Queue(queueName, { connection: client, prefix });
  const reconcile = new Queue(RECONCILE_QUEUE, { connection: client, prefix });
  const ticks = new Queue(RECONCILE_TICKS_QUEUE, { connection: client, prefix });
  ticks.on('error', reportError.error);
  deliveries.on('error', reportError.error);
  reconcile.on('error', reportError.error);
  try {
    await shareBudget(
      client,
      reconcile,
      queueName,
      { requests: budgetRequests, windowMs: budgetWindowMs },
      budgetGiven,
    );
  } catch (error) {
    await Promise.all([ticks.close(), deliveries.close(), reconcile.close()].map((closing) => closing.catch(() => {})));
    await quit(client);
    throw error;
  }
  const stateKey = (form: number) => reconcileStateKey(prefix, form);
  const formsKey = `${prefix}:reconcile:forms`;

  // Each form's fields, read once per process and again when a listed answer names a field they
  // lack; the ids still lacking after a read (answers to fields removed from the form) are
  // remembered, so they do not cost a read on every page.
  const fieldsOf = new Map<number, { fields: FormFields; absent: Set<string> }>();
  async function fields(
    form: number,
    listed: readonly ListedSubmission[],
  ): Promise<{ fields: FormFields; requests: number }> {
    const known = fieldsOf.get(form);
    const unknown = (fields: FormFields) => listed.flatMap((item) => unknownFieldIds(item, fields));
    if (known && unknown(known.fields).every((id) => known.absent.has(id)))
      return { fields: known.fields, requests: 0 };
    const read = formFields(await api.forms.get(form));
    const absent = new Set([...(known?.absent ?? []), ...unknown(read)].filter((id) => !read.has(id)));
    fieldsOf.set(form, { fields: read, absent });
    return { fields: read, requests: 1 };
  }

  async function step(job: Job<WalkData>, token: string | undefined): Promise<ReconcileReport | void> {
    const data = job.data;
    const { perPage, graceMs, lookbackMs, claimWindowMs } = data.settings;
    const state = stateKey(data.form);
    if (data.startedAt === null) {
      const watermark = Number((await client.hget(state, 'watermark')) ?? NaN);
      data.startedAt = Date.now();
      // No watermark yet: a first walk looks back as far as the lookback; `catchUp` goes further.
      data.cutoff = data.since ?? (Number.isFinite(watermark) ? watermark : data.startedAt - graceMs) - lookbackMs;
    }
    const startedAt = data.startedAt;
    const cutoff = data.cutoff as number;
    // Each fall of `total` sends the walk back: a list that keeps changing must not hold the form's
    // walk (and the budget) for ever.
    if (data.pages >= MAX_WALK_PAGES)
      throw new UnrecoverableError(
        `The walk of form ${data.form} read ${MAX_WALK_PAGES} pages without reaching its end: the list kept shifting under it. The next walk starts again.`,
      );
    const page = await api.submissions.list(data.form, { page: data.page, perPage, status: 'completed' });
    data.pages++;
    const total = page.meta?.total ?? null;
    // Submissions deleted ahead of the walk pulled the rest up: some of the pages not yet read moved
    // onto pages already read. The walk reads from the first of those again (one step a page, through
    // the budget) and takes nothing of this page now, so the boundary does not pass over them.
    const back = firstPageMovedOnto(
      { startPage: 1, perPage },
      data.page,
      data.lastTotal ?? undefined,
      total ?? undefined,
    );
    data.lastTotal = total;
    const movedBack = back !== undefined;
    const items = movedBack ? [] : (page.data ?? []);
    const { fields: known, requests: formReads } = await fields(data.form, items);
    let done = !movedBack && (items.length === 0 || (page.meta?.last_page ?? data.page) <= data.page);
    const candidates: Array<{ listed: ListedSubmission; key: string; id: number; createdAt: Date }> = [];
    for (const listed of items) {
      const submission = normaliseListedSubmission(listed, known, 'reconcile');
      const createdAt = submission.createdAt!.getTime();
      if (createdAt < cutoff) {
        done = true; // newest first: the rest is older still
        break;
      }
      // Too young: left to its webhook, and to the next walk (the watermark stops before it).
      if (createdAt > startedAt - graceMs) continue;
      // Met before in this walk: submissions arriving meanwhile push the others to later pages.
      const boundary = data.boundary;
      if (
        boundary &&
        (createdAt > boundary.time || (createdAt === boundary.time && boundary.ids.includes(submission.id)))
      )
        continue;
      if (boundary?.time === createdAt) boundary.ids.push(submission.id);
      else data.boundary = { time: createdAt, ids: [submission.id] };
      data.examined++;
      candidates.push({ listed, key: submission.key, id: submission.id, createdAt: submission.createdAt! });
    }
    const taken = await claimed(
      client,
      candidates.map((c) => claimKey(prefix, c.key)),
    );
    const recoveredBefore = data.recovered.length;
    for (const [i, candidate] of candidates.entries()) {
      if (taken[i]) continue;
      if (!data.dryRun) {
        const jobId = `rc-${candidate.key.replace(':', '-')}`;
        // Queued, then claimed: a job whose claim a webhook takes in between is skipped by the
        // worker (the webhook's job runs it); a claim is never left without its job.
        await deliveries.add(DELIVERY_JOB_NAME, storeReconciled(candidate.listed, known, Date.now()), {
          ...deliveryOptions,
          jobId,
        });
        // Counted as recovered as it is claimed (one script): a step that fails later loses no count,
        // and `stats` shows a long catch-up's progress. One a webhook claimed meanwhile is not ours.
        const holder = await claimSubmission(client, claimKey(prefix, candidate.key), jobId, claimWindowMs, {
          key: state,
          field: 'recovered',
        });
        if (holder !== jobId) continue;
      }
      data.recovered.push({ key: candidate.key, id: candidate.id, createdAt: candidate.createdAt.toISOString() });
    }
    await client.hincrby(state, 'requests', 1 + formReads);
    // A dry run changes nothing, no metric either.
    // The metric counts what the state in Redis counts: submissions queued and claimed by the walk.
    if (!data.dryRun) recordReconciled(queueName, candidates.length, data.recovered.length - recoveredBefore);
    if (!done) {
      // The next page is another step of the same job: through the rate limiter again, and the
      // walk's one id stays taken until it ends, so no second walk of the form starts meanwhile.
      await job.updateData({ ...data, page: back ?? data.page + 1 });
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    let watermark = await client.hget(state, 'watermark');
    if (!data.dryRun) {
      const current = watermark === null ? null : Number(watermark);
      const reached = startedAt - graceMs;
      // Advanced only over a range walked without a gap: from at or below the old watermark.
      if (current === null || (cutoff <= current && reached > current)) watermark = String(reached);
      await client
        .multi()
        .hset(state, 'watermark', watermark ?? '', 'lastRunAt', String(Date.now()))
        .sadd(formsKey, String(data.form))
        .exec();
    }
    return {
      form: data.form,
      dryRun: data.dryRun,
      pages: data.pages,
      examined: data.examined,
      recovered: data.recovered,
      watermark: watermark ? new Date(Number(watermark)).toISOString() : null,
    };
  }

  const walkData = (form: number, since: number | null, dryRun: boolean): WalkData => ({
    form,
    settings: { perPage, graceMs, lookbackMs, claimWindowMs },
    dryRun,
    since,
    page: 1,
    pages: 0,
    lastTotal: null,
    startedAt: null,
    cutoff: null,
    boundary: null,
    examined: 0,
    recovered: [],
  });
  const walkOptions = { attempts: 5, backoff: { type: 'exponential', delay: 2_000 } } as const;

  let worker: Worker | undefined;
  let tickWorker: Worker | undefined;
  if (options.work !== false) {
    tickWorker = new Worker(
      RECONCILE_TICKS_QUEUE,
      async (job: Job) => {
        // A walk already under way keeps its id: adding it again is a no-op, so one walk per form.
        await reconcile.add('walk', walkData(job.data.form, null, false), {
          ...walkOptions,
          jobId: `walk-${job.data.form}`,
          removeOnComplete: true,
          removeOnFail: true,
        });
      },
      { connection: client, prefix, concurrency: 1 },
    );
    tickWorker.on('error', reportError.error);
    worker = new Worker(
      RECONCILE_QUEUE,
      async (job: Job, token?: string) => {
        try {
          return await step(job as Job<WalkData>, token);
        } catch (error) {
          if (error instanceof DelayedError) throw error;
          onError(error as Error);
          // The API said no (a wrong token, an unknown form, a bad page): asking again cannot help.
          const status = (error as { status?: unknown }).status;
          if (typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429)
            throw new UnrecoverableError((error as Error).message);
          throw error;
        }
      },
      // No limiter of its own: the queue's global rate limit (shareBudget) holds every worker.
      { connection: client, prefix, concurrency: 1 },
    );
    worker.on('error', reportError.error);
  }
  for (const form of forms)
    await ticks.upsertJobScheduler(
      `form-${form}`,
      { every: intervalMs },
      { name: 'tick', data: { form }, opts: { removeOnComplete: true, removeOnFail: true } },
    );

  // The lag of every form with a reconcile state, read from Redis when metrics are collected.
  const stopLag = observeReconcileLag(queueName, async () =>
    Promise.all((await reconciledForms(client, queueName)).map((form) => reconcileState(client, queueName, form))),
  );

  let events: QueueEvents | undefined;
  let eventsClient: RedisClient | undefined;
  let closed: Promise<void> | undefined;
  return {
    queue: queueName,
    async catchUp(form, { since, dryRun = false } = {}) {
      assertPositiveInteger('form', form);
      if (since !== undefined && !(since instanceof Date && Number.isFinite(since.getTime())))
        throw new InboxError('invalid_option', '`since` must be a valid Date.', { context: { option: 'since' } });
      // QueueEvents blocks on its connection: one of its own.
      if (!events) {
        eventsClient = createRedisClient(options.connection, 'worker');
        events = new QueueEvents(RECONCILE_QUEUE, { connection: eventsClient, prefix });
      }
      await events.waitUntilReady();
      const job = await reconcile.add('walk', walkData(form, since?.getTime() ?? null, dryRun), {
        ...walkOptions,
        jobId: `catch-up-${form}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 24 * 3600 },
      });
      try {
        return (await job.waitUntilFinished(events)) as ReconcileReport;
      } catch (cause) {
        throw new InboxError(
          'reconcile_failed',
          `The walk of form ${form}'s submissions failed: ${(cause as Error).message}. Check that the token may read the form's submissions and that the form exists.`,
          { context: { form, jobId: job.id }, cause },
        );
      }
    },
    state: (form) => reconcileState(client, queueName, form),
    close() {
      closed ??= (async () => {
        stopLag();
        await Promise.all([worker?.close(), tickWorker?.close()]);
        await events?.close().catch(() => {});
        if (eventsClient) await quit(eventsClient);
        await reconcile.close().catch(() => {});
        await ticks.close().catch(() => {});
        await deliveries.close().catch(() => {});
        await quit(client);
      })();
      return closed;
    },
  };
}

/**
 * Makes the budget the queue's global rate limit unless one is set, and checks that a budget given
 * is the one set: a worker's own limiter would apply whichever worker fetched a step, so two
 * processes given different budgets would each spend their own.
 */
async function shareBudget(
  client: RedisClient,
  reconcile: Queue,
  queue: string,
  budget: { requests: number; windowMs: number },
  given: boolean,
): Promise<void> {
  const meta = reconcile.toKey('meta');
  const [max, duration] = (await client.eval(
    "if redis.call('HEXISTS', KEYS[1], 'max') == 0 then redis.call('HSET', KEYS[1], 'max', ARGV[1], 'duration', ARGV[2]) end return redis.call('HMGET', KEYS[1], 'max', 'duration')",
    1,
    meta,
    String(budget.requests),
    String(budget.windowMs),
  )) as [string | null, string | null];
  const shared = { requests: Number(max), windowMs: Number(duration) };
  if (given && (shared.requests !== budget.requests || shared.windowMs !== budget.windowMs))
    throw new InboxError(
      'budget_mismatch',
      `The reconcilers of queue "${queue}" share one request budget, ${shared.requests} per ${shared.windowMs} ms, set by the first of them; this one was given ${budget.requests} per ${budget.windowMs} ms. Give every reconciler the same \`requestBudget\` (or none, to take the one set). To change it, stop them all, delete the fields max and duration of the Redis hash ${meta}, and start them with the new budget.`,
      {
        context: {
          queue,
          requests: budget.requests,
          windowMs: budget.windowMs,
          sharedRequests: shared.requests,
          sharedWindowMs: shared.windowMs,
          key: meta,
        },
      },
    );
}

async function quit(client: RedisClient): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}

const reconcileStateKey = (prefix: string, form: number) => `${prefix}:reconcile:form:${form}`;

/** What Redis keeps of a form's reconciliation. */
export async function reconcileState(client: RedisClient, queue: string, form: number): Promise<ReconcileState> {
  const raw = await client.hgetall(reconcileStateKey(inboxQueuePrefix(queue), form));
  const time = (value: string | undefined) => (value ? new Date(Number(value)).toISOString() : null);
  return {
    form,
    watermark: time(raw.watermark),
    lastRunAt: time(raw.lastRunAt),
    requests: Number(raw.requests ?? 0),
    recovered: Number(raw.recovered ?? 0),
    lagMs: raw.watermark ? Math.max(0, Date.now() - Number(raw.watermark)) : null,
  };
}

/** The forms whose reconciliation Redis keeps a state of (CLI `stats`). */
export async function reconciledForms(client: RedisClient, queue: string): Promise<number[]> {
  const members = await client.smembers(`${inboxQueuePrefix(queue)}:reconcile:forms`);
  return members.map(Number).sort((a, b) => a - b);
}
