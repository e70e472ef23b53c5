// The chaos proof of "every submission handled exactly once, even when its webhook never arrives",
// shared by the test (small) and `pnpm bench` (500 answers). The observed sandbox, with its rate
// limit on (a 30-times shorter window), sends each webhook once to a receiver (the inbox) that is
// down for a fifth of the answers; a worker process is SIGKILLed (mid-job when one can be caught)
// and replaced; Redis (AOF, appendfsync always) is crashed while answers keep coming, then started
// again; a reconciler walks the form the whole time, and a few webhooks are held by the receiver
// until a walk has passed them, so webhook and reconciler race on the same submission. The workers
// (the inbox's chaos worker) write a line per handler run; the handler's own record is those lines
// deduplicated by submission key, as an upsert on `submissionKey` in the user's database would be.
// Uses the built packages (`pnpm build` first).
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createFormsClient } from '@forms-api/client';
import { startRedisServer } from '@forms-api/redis-server';
import { until } from '@forms-api/test-support';
import { createInbox, createReconciler } from '@forms-api/webhook-inbox';
import { runInboxCli } from '@forms-api/webhook-inbox/cli';
import { closeHttpServer, inboxMiddleware } from '@forms-api/webhook-inbox/express';
import { startSandbox } from '../dist/index.js';

// The inbox's chaos run forks its workers and restarts Redis; the same code runs here.
const inboxBench = join(
  dirname(createRequire(import.meta.url).resolve('@forms-api/webhook-inbox/package.json')),
  'bench',
);
const { startAgain, startProcess } = await import(pathToFileURL(join(inboxBench, 'chaos.mjs')).href);
const WORKER = join(inboxBench, 'chaos-worker.mjs');

const SECRET = 'whsec_sandbox_reconcile_chaos_secret';
const QUEUE = 'sandbox-chaos';
const FORM = 11;
const MARKER = 'chaos';
// The service's 100 a minute per user on a 2 s window; the reconciler spends a fifth of it.
const RATE = { limit: 100, windowMs: 2_000 };
const BUDGET = { requests: 20, windowMs: 2_000 };
const PER_PAGE = 20;
// Shares of the answers: receiver up, down, up while a worker is killed, Redis crashed, up again.
const SEGMENTS = [0.3, 0.2, 0.2, 0.15, 0.15];
// How long a stage of the run may take, and how often it is looked at.
const WAIT = { timeoutMs: 120_000, everyMs: 20 };

/** Every handler run the workers wrote, by file (one per worker process), and their failure lines. */
function readRuns(dir) {
  const runs = [];
  const failures = [];
  const inJob = new Map();
  for (const file of readdirSync(dir)) {
    const pid = Number(file.split('.')[0]);
    let open = 0;
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const [kind, id, at, key, origin, first] = line.split(' ');
      if (kind === 'S') open++;
      if (kind === 'F') failures.push(line);
      if (kind !== 'E') continue;
      open--;
      runs.push({ pid, id, at: Number(at), key, origin, first: first === '1' });
    }
    inJob.set(pid, open > 0);
  }
  return { runs, failures, inJob };
}

/**
 * @param {{ answers?: number, workers?: number, lanes?: number, log?: (line: string) => void }} [options]
 */
export async function runReconcileChaos({ answers = 500, workers: workerCount = 2, lanes = 8, log = () => {} } = {}) {
  const runsDir = mkdtempSync(join(tmpdir(), 'sandbox-chaos-'));
  const children = new Set();
  const redis = await startRedisServer({ appendonly: true, appendfsync: 'always' });
  const inbox = createInbox({ connection: redis.url, secret: SECRET, queue: QUEUE, onRedisError: () => {} });
  const middleware = inboxMiddleware(inbox);
  /** The queue's `stats --json`, as an operator reads it. */
  const queueStats = async () => {
    let stats;
    await runInboxCli(['stats', '--json', '--redis', redis.url, '--queue', QUEUE], {
      out: (line) => (stats = JSON.parse(line)),
      err: () => {},
    });
    return stats;
  };
  const sb = await startSandbox({
    behaviour: 'observed',
    rateLimit: RATE,
    trustedProxies: 1,
    allowPrivateWebhooks: true,
    log: () => {},
  });
  const client = createFormsClient({ baseUrl: sb.baseUrl, token: sb.tokens.all });
  let reconciler;
  const receiver = { arrived: 0, answered: 0, stored: 0, down: 0, refused: 0, held: 0 };
  let receiverDown = false;
  // Held until a walk of the reconciler has passed it (4 s at most: the service waits 5 s).
  const holdEvery = 20;
  const server = createServer(async (req, res) => {
    const down = receiverDown;
    res.once('close', () => {
      receiver.answered++;
      if (down) receiver.down++;
      else if (res.statusCode === 202) receiver.stored++;
      else receiver.refused++;
    });
    // Down: answers 503 before reading anything, as a load balancer with no healthy receiver does.
    if (down) return void res.writeHead(503).end();
    if (receiver.arrived++ % holdEvery === holdEvery / 2 && redis.running) {
      receiver.held++;
      const arrivedAt = Date.now();
      const passed = async () => {
        const { watermark } = await reconciler.state(FORM);
        return watermark !== null && Date.parse(watermark) >= arrivedAt;
      };
      // A deadline of its own too: a state read waiting for Redis must not hold the answer.
      await Promise.race([
        until('a walk past a held webhook', passed, { timeoutMs: 4_000, everyMs: 20 }).catch(() => {}),
        new Promise((resolve) => setTimeout(resolve, 4_000)),
      ]);
    }
    middleware(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const env = {
    REDIS_URL: redis.url,
    INBOX_QUEUE: QUEUE,
    RUNS_DIR: runsDir,
    // Short locks, so the killed worker's job is taken over within the run; a second run is harmless here.
    LOCK_MS: '4000',
    STALLED_MS: '2000',
    CONCURRENCY: '4',
    WORK_MS: '5',
  };
  const started = Date.now();
  try {
    const workers = Array.from({ length: workerCount }, () => startProcess(WORKER, env, children));
    await Promise.all(workers.map((w) => w.ready));
    const url = `http://127.0.0.1:${server.address().port}/webhooks/forms`;
    const call = async (method, path, body) => {
      const response = await fetch(`${sb.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${sb.tokens.all}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
      return response.json();
    };
    const integration = (
      await call('POST', `/open/forms/${FORM}/integrations`, {
        integration_id: 'webhook',
        status: 'active',
        data: { webhook_url: url, webhook_secret: SECRET },
      })
    ).form_integration.id;
    const events = () => call('GET', `/open/forms/${FORM}/integrations/${integration}/events`);
    const form = await call('GET', `/open/forms/${FORM}`);
    const field = (name) => form.properties.find((p) => p.name === name).id;
    const [nameField, emailField] = [field('Name'), field('Email')];

    reconciler = await createReconciler({
      connection: redis.url,
      queue: QUEUE,
      client,
      forms: [FORM],
      intervalMs: 300,
      // A webhook normally lands within milliseconds; a second of grace leaves the races to slow ones.
      graceMs: 1_000,
      lookbackMs: 3_000,
      perPage: PER_PAGE,
      requestBudget: BUDGET,
      onRedisError: () => {},
      onError: () => {},
    });

    // Each answer from an address of its own (the public route is limited per address).
    let submitted = 0;
    const submit = async (count) => {
      let left = count;
      await Promise.all(
        Array.from({ length: lanes }, async () => {
          while (left > 0) {
            left--;
            const n = ++submitted;
            const response = await fetch(`${sb.baseUrl}/forms/${FORM}/answer`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.18.${n >> 8}.${n & 255}` },
              body: JSON.stringify({ [nameField]: `${MARKER} ${n}`, [emailField]: 'ada@example.com' }),
            });
            if (response.status !== 200) throw new Error(`answer ${n} answered ${response.status}`);
          }
        }),
      );
      // The sandbox sends webhooks after answering: the segment ends once the receiver answered
      // each, or the sandbox recorded each (one may never reach it: a kept-alive socket reset).
      await until(
        'the webhooks of the segment',
        async () => receiver.answered >= submitted || (await events()).length >= submitted,
        // the events are read through the rate limit the reconciler spends too
        { timeoutMs: 120_000, everyMs: 200 },
      );
    };
    const sizes = SEGMENTS.map((share) => Math.round(answers * share));
    sizes[sizes.length - 1] = answers - sizes.slice(0, -1).reduce((a, b) => a + b, 0);
    log(`reconcile chaos: ${answers} answers in segments of ${sizes.join(', ')}, ${workerCount} worker processes`);

    await submit(sizes[0]);
    receiverDown = true;
    await submit(sizes[1]);
    receiverDown = false;
    // A worker is SIGKILLed during the third segment, in the middle of a job if one is caught in one.
    let segmentDone = false;
    const kill = (async () => {
      const live = () => workers.filter((w) => w.child.exitCode === null);
      const midJob = () => live().find((w) => readRuns(runsDir).inJob.get(w.child.pid));
      await until('a worker in a job', () => segmentDone || midJob() !== undefined, WAIT);
      const victim = midJob() ?? live()[0];
      const pid = victim.child.pid;
      const midJobAtKill = readRuns(runsDir).inJob.get(pid) ?? false;
      victim.child.kill('SIGKILL');
      const signal = await victim.exited;
      workers.splice(workers.indexOf(victim), 1, startProcess(WORKER, env, children));
      await workers.at(-1).ready;
      return { pid, signal, midJob: midJobAtKill, at: Date.now() };
    })();
    await submit(sizes[2]);
    segmentDone = true;
    const killed = await kill;
    log(`reconcile chaos: worker ${killed.pid} SIGKILLed${killed.midJob ? ' in the middle of a job' : ''}, replaced`);
    // Redis crashes (SIGKILL) and stays down while a segment of answers comes in.
    await redis.stop('SIGKILL');
    await submit(sizes[3]);
    await startAgain(redis, log);
    await until('the inbox writing to Redis again', async () => (await inbox.health()).ok, WAIT);
    log('reconcile chaos: Redis crashed during a segment of answers and started again');
    await submit(sizes[4]);

    const sent = await until(
      'an event for every webhook',
      async () => {
        const list = await events();
        return list.length === answers && list;
      },
      WAIT,
    );
    const made = new Map();
    for await (const item of client.submissions.iterate(FORM, { status: 'completed' }))
      if (String(item.data[nameField]).startsWith(`${MARKER} `))
        made.set(`${FORM}:${item.id}`, Date.parse(`${item.data.created_at.replace(' ', 'T')}Z`));

    const missing = () => {
      const recorded = new Set(readRuns(runsDir).runs.map((r) => r.key));
      return [...made.keys()].filter((key) => !recorded.has(key));
    };
    await until('every submission made in the handler record', () => missing().length === 0, {
      timeoutMs: 60_000,
      everyMs: 20,
    }).catch(async () => {
      // What the next reader of this failure needs: where the missing jobs are, who could run them.
      const left = missing();
      const counts = await queueStats()
        .then((stats) => JSON.stringify(stats.counts))
        .catch(() => 'unread');
      const alive = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null).length;
      const failures = readRuns(runsDir).failures.slice(-3).join(' | ') || 'none';
      const walk = JSON.stringify(await reconciler.state(FORM).catch((error) => error.message));
      throw new Error(
        `${left.length} of ${made.size} submissions never reached the handler: ${left}; ` +
          `receiver ${JSON.stringify(receiver)}; queue ${counts}; ${alive} of ${workers.length} worker processes alive; ` +
          `last handler failures: ${failures}; reconciler ${walk}`,
      );
    });
    const durationMs = Date.now() - started;
    // The walk under way now ends (and counts what it queued) before any other starts; those find
    // every submission claimed. Then nothing pending: every job queued has run or was skipped.
    await until(
      'a walk ended after the last record',
      async () => {
        const { lastRunAt } = await reconciler.state(FORM);
        return lastRunAt !== null && Date.parse(lastRunAt) >= started + durationMs;
      },
      WAIT,
    );
    await reconciler.close();
    const quiet = { out: () => {}, err: () => {} };
    if ((await runInboxCli(['drain', '--redis', redis.url, '--queue', QUEUE], quiet)) !== 0)
      throw new Error('the queue did not drain');
    const stats = await queueStats();
    const state = stats.reconcile.find((s) => s.form === FORM);
    await Promise.all(workers.map((w) => (w.child.kill('SIGTERM'), w.exited)));

    // The handler's record: the first run of each submission key; every later run was dropped by it.
    const { runs } = readRuns(runsDir);
    runs.sort((a, b) => a.at - b.at);
    const record = new Map();
    for (const run of runs) if (!record.has(run.key)) record.set(run.key, run);
    // The jobs that ran as their submission's first (a job taken over after a kill is the same job),
    // and by whom they came: the worker runs a reconciled job only as the first.
    const firstJobs = new Map();
    for (const run of runs.filter((r) => r.first))
      firstJobs.set(run.key, new Map(firstJobs.get(run.key)).set(run.id, run.origin));
    const firstBy = (origin) => [...firstJobs.values()].filter((jobs) => [...jobs.values()].includes(origin)).length;
    const lateWebhooks = runs.filter((r) => r.origin === 'webhook' && !r.first);
    const lags = [...record.values()]
      .filter((r) => made.has(r.key))
      .map((r) => ({ ms: r.at - made.get(r.key), origin: r.origin, key: r.key }));
    const largestLag = lags.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, origin: null, key: null });
    return {
      answers,
      segments: sizes,
      made: [...made.keys()],
      // The submission of each row of the handler's record.
      recorded: [...record.values()].map((r) => r.key),
      handlerRuns: runs.length,
      // Submissions whose first job ran as the first from more than one job: the claim let two through.
      claimedTwice: [...firstJobs].filter(([, jobs]) => jobs.size > 1).map(([key]) => key),
      // Reconciled runs not the first of their submission (the worker must skip those).
      reconciledNotFirst: runs.filter((r) => r.origin === 'reconcile' && !r.first).length,
      byWebhook: firstBy('webhook'),
      recovered: firstBy('reconcile'),
      failedWebhooks: sent.filter((e) => e.status === 'Error').length,
      // Submissions no webhook job ran for: their webhook never reached Redis. A failed webhook may
      // still have been stored (answered after the service's 5 s, or 503 after Redis took it late).
      lost: made.size - new Set(runs.filter((r) => r.origin === 'webhook').map((r) => r.key)).size,
      // Submissions whose webhook arrived after the reconciler had taken them (it ran, not as the first).
      lateWebhooks: new Set(lateWebhooks.map((r) => r.key)).size,
      duplicatesDropped: {
        // Runs the handler's record refused: a webhook arriving after the reconciler took its
        // submission, or a job run again (its worker killed, or Redis away, while it ran).
        record: runs.length - record.size,
        lateWebhook: lateWebhooks.length,
        rerun: runs.length - new Set(runs.map((r) => r.id)).size,
      },
      // Webhooks that never reached the receiver (the sandbox recorded them failed).
      receiver: { ...receiver, unreachable: answers - receiver.answered },
      reconciler: { queued: state.recovered, requests: state.requests, budget: BUDGET, perPage: PER_PAGE },
      rateLimit: RATE,
      deadLetters: stats.counts.failed ?? 0,
      killed: {
        ...killed,
        runsBefore: runs.filter((r) => r.pid === killed.pid).length,
        runsAfter: runs.filter((r) => r.at > killed.at).length,
      },
      largestLag,
      durationMs,
    };
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await reconciler?.close();
    await sb.close();
    await closeHttpServer(server);
    await inbox.close();
    await redis.close();
    rmSync(runsDir, { recursive: true, force: true });
  }
}

/** The figures as printed lines. */
export function formatReconcileChaos(f) {
  const floorS = (f.reconciler.requests / f.reconciler.budget.requests) * (f.reconciler.budget.windowMs / 1000);
  const fewest = Math.ceil(f.answers / f.reconciler.perPage) + 1;
  return [
    `answers ${f.answers}: handled once ${f.recorded.length} (in ${f.handlerRuns} handler runs), ${f.byWebhook} first by webhook, ${f.recovered} recovered by the reconciler`,
    `webhooks: ${f.receiver.stored} stored, ${f.failedWebhooks} failed (${f.receiver.down} while the receiver was down, ${f.receiver.refused} refused by the inbox while Redis was away, ${f.receiver.unreachable} never reached it; ${f.failedWebhooks - f.lost} of them stored all the same), ${f.receiver.held} held until a walk passed; ${f.lateWebhooks} arrived after the reconciler took their submission`,
    `duplicates dropped: ${f.duplicatesDropped.record} by the handler's record (${f.duplicatesDropped.lateWebhook} late webhooks, ${f.duplicatesDropped.rerun} jobs run again)`,
    `worker ${f.killed.pid} SIGKILLed${f.killed.midJob ? ' mid-job' : ''} after ${f.killed.runsBefore} runs; Redis (AOF always) crashed and restarted during ${f.segments[3]} answers; dead letters ${f.deadLetters}`,
    `largest lag ${(f.largestLag.ms / 1000).toFixed(1)} s from created_at (seconds only) to the record, by ${f.largestLag.origin} (${f.largestLag.key})`,
    `reconciler requests ${f.reconciler.requests} in ${(f.durationMs / 1000).toFixed(1)} s: the budget of ${f.reconciler.budget.requests} per ${f.reconciler.budget.windowMs / 1000} s (the sandbox allows ${f.rateLimit.limit}) makes ${floorS.toFixed(1)} s their floor; one walk over every answer takes ${fewest}`,
  ];
}
