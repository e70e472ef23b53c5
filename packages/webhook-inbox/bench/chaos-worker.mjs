// A worker process for the chaos runs (this package's, and the sandbox's reconcile chaos): the inbox
// worker from the built package, whose handler writes one line per run to a file of its own
// ("S <id> <ms>" when it starts, "E <id> <ms> <submissionKey> <origin> <firstOfSubmission 1|0>"
// when it ends), with a write(2) per line, so a SIGKILL loses no line already written. Closes on SIGTERM.
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { closeOnSignals, createInboxWorker } from '../dist/index.js';

const number = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const workMs = number('WORK_MS', 0);
const runs = openSync(join(process.env.RUNS_DIR, `${process.pid}.runs`), 'a');

const worker = createInboxWorker({
  connection: process.env.REDIS_URL,
  queue: process.env.INBOX_QUEUE,
  concurrency: number('CONCURRENCY', 8),
  lockDurationMs: number('LOCK_MS', undefined),
  stalledIntervalMs: number('STALLED_MS', undefined),
  onRedisError: () => {},
  onFailure: ({ id, attempt, error }) =>
    writeSync(runs, `F ${id} ${Date.now()} ${attempt} ${JSON.stringify(error.message)}\n`),
  async handler(delivery) {
    writeSync(runs, `S ${delivery.id} ${Date.now()}\n`);
    if (workMs > 0) await new Promise((resolve) => setTimeout(resolve, workMs));
    // Then what an idempotent record keys on, and who brought it (a reader may dedupe by submission).
    writeSync(
      runs,
      `E ${delivery.id} ${Date.now()} ${delivery.submissionKey} ${delivery.origin} ${delivery.firstOfSubmission ? 1 : 0}\n`,
    );
  },
});

while (!(await worker.health()).ok) await new Promise((resolve) => setTimeout(resolve, 20));
process.send({ type: 'ready' });
closeOnSignals([worker, async () => closeSync(runs)], { log: () => {} });
