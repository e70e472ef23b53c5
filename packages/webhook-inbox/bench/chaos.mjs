// The chaos run, shared by the test and `pnpm bench`: distinct signed deliveries sent to several
// receiver processes while worker processes are SIGKILLed every few seconds (and replaced) and
// Redis (AOF, appendfsync always) is crashed and restarted once; then every delivery answered 202
// is checked against the handler runs the workers wrote to their files: none may be missing, and
// every second run must be one of the at-least-once cases the README names (a worker killed
// mid-job; Redis gone while a job was in hand). Uses the built package (`pnpm build` first).
import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { startRedisServer } from '@forms-api/redis-server';
import { inboxQueuePrefix } from '../dist/index.js';

const SECRET = 'whsec_chaos_secret_0123456789abcd';
const QUEUE = 'chaos';
const RECEIVER = fileURLToPath(new URL('../test/fixtures/receiver.mjs', import.meta.url));
const WORKER = fileURLToPath(new URL('./chaos-worker.mjs', import.meta.url));
const PENDING = ['waiting', 'delayed', 'active', 'prioritized', 'waiting-children'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function signed(submissionId) {
  const body = JSON.stringify({
    form_id: 11,
    form_title: 'Contact us',
    form_slug: 'contact-us-a1b2c3',
    submission: { Name: `Ada ${submissionId}` },
    data: {},
    submission_id: submissionId,
  });
  return { body, signature: `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` };
}

/** Forks `file` with `env`; `ready` resolves with its first `{ type: 'ready' }` message. */
export function startProcess(file, env, children) {
  const child = fork(file, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  children.add(child);
  let output = '';
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-4_000)));
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => (children.delete(child), resolve(code ?? signal))),
  );
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${file} (pid ${child.pid}) not ready within 60 s:\n${output}`)),
      60_000,
    );
    child.on('message', (message) => message?.type === 'ready' && (clearTimeout(timer), resolve(message)));
    exited.then(
      (code) => (clearTimeout(timer), reject(new Error(`${file} exited (${code}) before it was ready:\n${output}`))),
    );
  });
  ready.catch(() => {});
  return { child, ready, exited };
}

/** Starts a stopped Redis on its port, where every process reconnects; a busy machine may need more than one try. */
export async function startAgain(redis, log = () => {}) {
  for (let tries = 1; ; tries++) {
    try {
      return await redis.start();
    } catch (error) {
      if (tries === 5) throw new Error(`Redis did not start again on port ${redis.port}: ${error.message}`);
      log(`chaos: Redis did not start again (${error.message.split('\n')[0]}); trying again`);
    }
  }
}

/**
 * @param {object} [options]
 * @param {number} [options.deliveries] distinct deliveries (default 20,000)
 * @param {number} [options.receivers] receiver processes (3)
 * @param {number} [options.workers] worker processes alive at a time (3)
 * @param {number} [options.killEveryMs] a worker is SIGKILLed this often (4,000 ms)
 * @param {number} [options.connections] requests in flight (32)
 * @param {(line: string) => void} [options.log]
 */
export async function runChaos(options = {}) {
  const {
    deliveries = 20_000,
    receivers: receiverCount = 3,
    workers: workerCount = 3,
    killEveryMs = 4_000,
    connections = 32,
    log = () => {},
  } = options;
  // Locks short enough for a killed worker's jobs to be taken over within the run, long enough that
  // a worker starved of CPU on a busy machine still renews them (a lock that expires under a live
  // worker would run its job twice: not a case the README promises).
  const lockMs = 10_000;
  const stalledMs = 5_000;
  const runsDir = mkdtempSync(join(tmpdir(), 'inbox-chaos-'));
  const children = new Set();
  const redis = await startRedisServer({ appendonly: true, appendfsync: 'always' });
  const queue = new Queue(QUEUE, {
    connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null },
    prefix: inboxQueuePrefix(QUEUE),
  });
  queue.on('error', () => {});
  const env = { REDIS_URL: redis.url, WEBHOOK_SECRET: SECRET, INBOX_QUEUE: QUEUE };
  const workerEnv = {
    ...env,
    RUNS_DIR: runsDir,
    LOCK_MS: String(lockMs),
    STALLED_MS: String(stalledMs),
    CONCURRENCY: '8',
    WORK_MS: '2',
  };
  const killed = [];
  const started = performance.now();
  let killer;
  let redisDown;
  let redisUp;
  try {
    const receivers = await Promise.all(
      Array.from({ length: receiverCount }, () => startProcess(RECEIVER, env, children).ready),
    );
    const urls = receivers.map((r) => `http://127.0.0.1:${r.port}/webhooks/forms`);
    const workers = Array.from({ length: workerCount }, () => startProcess(WORKER, workerEnv, children));
    await Promise.all(workers.map((w) => w.ready));
    log(
      `chaos: ${receiverCount} receivers, ${workerCount} workers, Redis AOF always on :${redis.port}; sending ${deliveries} deliveries`,
    );

    // Every few seconds: SIGKILL a worker that has started, and start its replacement.
    let killing = false;
    killer = setInterval(async () => {
      if (killing) return;
      killing = true;
      try {
        const live = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
        const victim = live[Math.floor(Math.random() * live.length)];
        if (!victim) return;
        await victim.ready.catch(() => {});
        killed.push({ pid: victim.child.pid, at: Date.now() });
        victim.child.kill('SIGKILL');
        await victim.exited;
        workers.splice(workers.indexOf(victim), 1, startProcess(WORKER, workerEnv, children));
      } finally {
        killing = false;
      }
    }, killEveryMs);

    // The load: every delivery until a receiver answers 202. A 503 (Redis away) or a refused
    // connection is sent again shortly, as a sender that retries would; the job id makes a copy harmless.
    const accepted = new Set();
    let answered503 = 0;
    let failedConnections = 0;
    let sent = 0;
    let next = 0;
    const restartAt = Math.floor(deliveries * 0.4);
    let restart;
    let fatal;
    const lane = async (laneIndex) => {
      while (next < deliveries) {
        const index = next++;
        const delivery = signed(index + 1);
        let jobId; // the receivers' answer names the job; every copy of a delivery must get the same
        const giveUpAt = Date.now() + 5 * 60_000;
        for (let attempt = 0; ; attempt++) {
          if (fatal) throw fatal;
          if (Date.now() > giveUpAt)
            throw new Error(
              `delivery ${index + 1} was not accepted within 5 minutes of retries (Redis ${redis.running ? 'running' : 'not running'})`,
            );
          sent += 1;
          const url = urls[(index + attempt + laneIndex) % urls.length];
          let status = 0;
          try {
            const response = await fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-webhook-signature': delivery.signature },
              body: delivery.body,
              signal: AbortSignal.timeout(5_000),
            });
            status = response.status;
            const answer = await response.json().catch(() => ({}));
            if (status === 202 && jobId !== undefined && answer.id !== jobId)
              throw new Error(`a 202 for delivery ${index + 1} named job ${answer.id}, an earlier one ${jobId}`);
            if (status === 202) jobId = answer.id;
          } catch (error) {
            if (error instanceof Error && error.message.startsWith('a 202')) throw error;
            status = 0;
          }
          if (status === 202) {
            if (typeof jobId !== 'string' || accepted.has(jobId))
              throw new Error(`delivery ${index + 1} was accepted as job ${jobId}, which is not a new job id`);
            accepted.add(jobId);
            break;
          }
          if (status === 503) answered503 += 1;
          else if (status === 0) failedConnections += 1;
          else throw new Error(`delivery ${index + 1} answered ${status}`);
          await sleep(100);
        }
        if (index === restartAt && !restart) {
          // Crash Redis (SIGKILL: with appendfsync always, every acknowledged write is on disk) and start it again.
          restart = (async () => {
            redisDown = Date.now();
            await redis.stop('SIGKILL');
            await sleep(1_000);
            await startAgain(redis, log);
            redisUp = Date.now();
            log(`chaos: Redis crashed and restarted (${redisUp - redisDown} ms down)`);
          })().catch((error) => {
            fatal = error;
          });
        }
      }
    };
    await Promise.all(Array.from({ length: connections }, (_, i) => lane(i)));
    await restart;
    if (fatal) throw fatal;
    const sentMs = performance.now() - started;
    log(
      `chaos: ${accepted.size} accepted in ${(sentMs / 1000).toFixed(1)} s (${answered503} answers 503 and ${failedConnections} failed connections sent again); waiting for the workers`,
    );

    // Done when nothing is waiting, delayed or held by a worker (a killed worker's job counts as
    // active until another takes it over), with the killing still going on.
    const drainDeadline = Date.now() + 10 * 60_000;
    for (;;) {
      const counts = await queue.getJobCounts(...PENDING);
      if (PENDING.every((state) => (counts[state] ?? 0) === 0)) break;
      if (Date.now() > drainDeadline) throw new Error(`the queue did not drain: ${JSON.stringify(counts)}`);
      await sleep(200);
    }
    clearInterval(killer);
    killer = undefined;
    const durationMs = performance.now() - started;
    // A job whose worker was killed twice while holding it has stalled twice: BullMQ then leaves it
    // in the failed set (the README says so). The operator's answer is `inbox retry --all`; do that.
    const failedJobs = (await queue.getFailed(0, -1)).filter(Boolean);
    const stalledTwice = failedJobs.filter((job) => /stalled more than allowable limit/.test(job.failedReason ?? ''));
    const deadLetters = failedJobs.length - stalledTwice.length;
    if (stalledTwice.length > 0 && deadLetters === 0) {
      const { runInboxCli } = await import('../dist/cli.js');
      const quiet = { out: () => {}, err: (line) => log(`retry --all: ${line}`) };
      if ((await runInboxCli(['retry', '--all', '--redis', redis.url, '--queue', QUEUE], quiet)) !== 0)
        throw new Error('inbox retry --all failed');
      for (const deadline = Date.now() + 5 * 60_000; ;) {
        const counts = await queue.getJobCounts(...PENDING, 'failed');
        if ([...PENDING, 'failed'].every((state) => (counts[state] ?? 0) === 0)) break;
        if (Date.now() > deadline) throw new Error(`the retried jobs did not complete: ${JSON.stringify(counts)}`);
        await sleep(200);
      }
    }
    // Stop the workers gracefully, so their files are complete.
    await Promise.all(
      [...children].map(
        (child) =>
          new Promise((resolve) =>
            child.exitCode !== null || child.signalCode !== null
              ? resolve()
              : (child.once('exit', resolve), child.kill('SIGTERM')),
          ),
      ),
    );

    // Every run the handlers wrote, by delivery.
    const runs = new Map();
    const failures = [];
    for (const file of readdirSync(runsDir)) {
      const pid = Number(file.split('.')[0]);
      for (const line of readFileSync(join(runsDir, file), 'utf8').split('\n')) {
        if (!line) continue;
        const [kind, id, at] = line.split(' ');
        if (kind === 'F') failures.push(line);
        if (kind === 'S') (runs.get(id) ?? runs.set(id, []).get(id)).push({ pid, start: Number(at), end: undefined });
        if (kind === 'E') {
          const run = runs.get(id)?.findLast((r) => r.pid === pid && r.end === undefined);
          if (run) run.end = Number(at);
        }
      }
    }
    const killedPids = new Set(killed.map((k) => k.pid));
    // Redis away: from the crash until a worker could have taken a job back (lock + stalled check).
    const redisWindow = [redisDown - 1_000, redisUp + lockMs + stalledMs + 2_000];
    let lost = 0;
    let handlerRuns = 0;
    const duplicates = { total: 0, workerKilled: 0, redisRestart: 0, unexplained: 0, unexplainedIds: [] };
    for (const id of accepted) {
      const of = (runs.get(id) ?? []).sort((a, b) => a.start - b.start);
      handlerRuns += of.length;
      // Lost: no run of the handler ran to its end.
      if (!of.some((run) => run.end !== undefined)) lost += 1;
      if (of.length < 2) continue;
      duplicates.total += 1;
      const earlier = of.slice(0, -1);
      if (earlier.some((run) => killedPids.has(run.pid))) duplicates.workerKilled += 1;
      else if (earlier.some((run) => run.start <= redisWindow[1] && (run.end ?? Infinity) >= redisWindow[0]))
        duplicates.redisRestart += 1;
      else {
        duplicates.unexplained += 1;
        if (duplicates.unexplainedIds.length < 5)
          duplicates.unexplainedIds.push({
            id,
            runs: of.map((r) => ({
              ...r,
              start: r.start - redisDown,
              end: r.end === undefined ? undefined : r.end - redisDown,
            })),
            killed: killed.map((k) => ({ pid: k.pid, at: k.at - redisDown })),
            redisUpAfter: redisUp - redisDown,
          });
      }
    }
    const strays = [...runs.keys()].filter((id) => !accepted.has(id)).length;
    return {
      deliveries,
      accepted: accepted.size,
      resent: { answered503, failedConnections },
      requests: sent,
      receivers: receiverCount,
      workers: workerCount,
      workerKills: killed.length,
      redisRestarts: redisUp ? 1 : 0,
      redisDownMs: redisUp - redisDown,
      durationMs: Math.round(durationMs),
      handlerRuns,
      lost,
      duplicates,
      deadLetters,
      stalledTwiceRetried: stalledTwice.length,
      failedAttempts: failures.length,
      failureSamples: failures.slice(0, 5),
      lostIds: [...accepted].filter((id) => !(runs.get(id) ?? []).some((run) => run.end !== undefined)).slice(0, 5),
      strays,
    };
  } finally {
    if (killer) clearInterval(killer);
    for (const child of children) child.kill('SIGKILL');
    await queue.close().catch(() => {});
    await redis.close();
    rmSync(runsDir, { recursive: true, force: true });
  }
}

/** The figures as printed lines. */
export function formatChaos(f) {
  return [
    `deliveries ${f.deliveries} distinct, ${f.accepted} accepted (202) through ${f.receivers} receiver processes (${f.requests} requests: ${f.resent.answered503} answered 503 and ${f.resent.failedConnections} failed connections while Redis was down, each sent again)`,
    `workers ${f.workers} processes at a time, ${f.workerKills} SIGKILLed and replaced; Redis (AOF, appendfsync always) crashed and restarted ${f.redisRestarts} time(s), down ${f.redisDownMs} ms`,
    `duration ${(f.durationMs / 1000).toFixed(1)} s from the first request until the queue was empty`,
    `lost ${f.lost} (accepted deliveries no handler run finished); dead letters ${f.deadLetters}; stalled twice (worker killed twice while holding the job) and sent back by \`inbox retry --all\` ${f.stalledTwiceRetried}`,
    `handler runs ${f.handlerRuns}: duplicates ${f.duplicates.total} (worker SIGKILLed mid-job ${f.duplicates.workerKilled}, Redis crash while in hand ${f.duplicates.redisRestart}, unexplained ${f.duplicates.unexplained})`,
  ];
}
