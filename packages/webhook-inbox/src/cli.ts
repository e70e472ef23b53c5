// `forms-webhook inbox …` (and the standalone `forms-webhook-inbox`): look at the queue, read the
// dead letters, send them back for another run, and wait for the queue to empty before a deploy.
import { parseArgs } from 'node:util';
import { Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedisClient, describeTarget } from './connection.js';
import { readDelivery } from './delivery.js';
import { InboxError } from './errors.js';
import { DEFAULT_QUEUE } from './policy.js';
import { replayCommand, type ReplayFlags } from './replay-cli.js';

const USAGE = `Usage: forms-webhook inbox <command> [--redis URL] [--queue NAME] [--json]

  stats                 jobs per state, and whether Redis persists them (AOF)
  failed [--limit N]    the dead letters, newest first (default 20): id, attempts, error, form, submission
  show <id>             one job in full: payload, headers (credentials masked), error and stack, attempts
  retry <id> | --all    send failed deliveries back to the queue with a fresh set of attempts
  drain [--timeout-ms N] wait until nothing is waiting, delayed or running (default 60000 ms); deletes nothing
  replay --status failed|completed [--since T] [--until T] [--form ID] [--dry-run]
                        run finished deliveries again from their stored bytes, re-verified with
                        --secret (repeatable while rotating) or FORMS_WEBHOOK_SECRET; T is an ISO
                        date-time or an age such as 30m, 6h, 2d. --dry-run lists what would be replayed

Redis comes from --redis, or FORMS_INBOX_REDIS_URL, or REDIS_URL. The queue defaults to ${DEFAULT_QUEUE}.
Exit codes: 0 done, 1 failed (Redis unreachable, job not found, drain timed out, a chosen delivery that cannot be replayed), 2 usage error.`;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const consoleIo: CliIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

export class UsageError extends Error {}

/** Runs one inbox command; resolves to the process exit code. */
export async function runInboxCli(args: string[], io: CliIo = consoleIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        redis: { type: 'string' },
        queue: { type: 'string' },
        json: { type: 'boolean' },
        limit: { type: 'string' },
        all: { type: 'boolean' },
        'timeout-ms': { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        form: { type: 'string' },
        status: { type: 'string' },
        'dry-run': { type: 'boolean' },
        secret: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    (values.help ? io.out : io.err)(USAGE);
    return values.help ? 0 : 2;
  }
  const redisUrl = values.redis ?? process.env.FORMS_INBOX_REDIS_URL ?? process.env.REDIS_URL;
  const options = { queue: values.queue ?? DEFAULT_QUEUE, json: values.json ?? false, io };

  let session: Session | undefined;
  try {
    const run = commandFor(command, rest, values);
    if (!redisUrl) throw new UsageError('Where is Redis? Pass --redis redis://host:6379, or set FORMS_INBOX_REDIS_URL or REDIS_URL.');
    session = await openSession(redisUrl, options.queue);
    return await run(session, options);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof InboxError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    await session?.close();
  }
}

interface Session {
  queue: Queue;
  client: Redis;
  close(): Promise<void>;
}

interface RunOptions {
  queue: string;
  json: boolean;
  io: CliIo;
}

type Command = (session: Session, options: RunOptions) => Promise<number>;

function commandFor(command: string, rest: string[], values: { limit?: string; all?: boolean; 'timeout-ms'?: string } & ReplayFlags): Command {
  switch (command) {
    case 'stats':
      return stats;
    case 'failed':
      return (session, options) => failed(session, options, positiveNumber('--limit', values.limit ?? '20'));
    case 'show': {
      const id = rest[0];
      if (!id) throw new UsageError('show needs a job id (see `failed`).');
      return (session, options) => show(session, options, id);
    }
    case 'retry': {
      const id = rest[0];
      if (!id && !values.all) throw new UsageError('retry needs a job id (see `failed`), or --all for every failed delivery.');
      if (id && values.all) throw new UsageError('retry takes a job id or --all, not both.');
      return (session, options) => retry(session, options, id);
    }
    case 'drain':
      return (session, options) => drain(session, options, positiveNumber('--timeout-ms', values['timeout-ms'] ?? '60000'));
    case 'replay':
      return replayCommand(values);
    default:
      throw new UsageError(`Unknown inbox command ${JSON.stringify(command)}.\n\n${USAGE}`);
  }
}

function positiveNumber(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new UsageError(`${flag} must be a positive whole number (got ${JSON.stringify(text)}).`);
  return value;
}

async function openSession(url: string, queueName: string): Promise<Session> {
  const client = createRedisClient(url, 'oneshot');
  client.on('error', () => {}); // the outcome is reported once, below
  await new Promise<void>((resolve, reject) => {
    const fail = (error?: Error) =>
      reject(
        new InboxError('redis_unavailable', `Could not reach Redis at ${describeTarget(client)}${error ? ` (${error.message})` : ''}. Check --redis (or FORMS_INBOX_REDIS_URL) and that Redis runs.`, {
          context: { target: describeTarget(client) },
        }),
      );
    client.once('ready', () => resolve());
    client.once('error', fail);
    client.once('end', () => fail());
  }).catch(async (error) => {
    client.disconnect();
    throw error;
  });
  const queue = new Queue(queueName, { connection: client });
  queue.on('error', () => {});
  return {
    queue,
    client,
    async close() {
      await queue.close().catch(() => {});
      await client.quit().catch(() => client.disconnect());
    },
  };
}

const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed', 'waiting-children'] as const;
const NOTES: Partial<Record<(typeof STATES)[number], string>> = {
  delayed: 'waiting for a retry',
  completed: 'kept for inspection',
  failed: 'dead letters: see `failed`',
};

async function stats({ queue, client }: Session, { json, io, queue: name }: RunOptions): Promise<number> {
  const counts = await queue.getJobCounts(...STATES);
  const aof = /aof_enabled:1/.test(await client.info('persistence'));
  if (json) {
    io.out(JSON.stringify({ queue: name, redis: describeTarget(client), counts, aof }));
    return 0;
  }
  io.out(`queue ${name} on ${describeTarget(client)}`);
  for (const state of STATES) io.out(`  ${state.padEnd(17)}${String(counts[state] ?? 0).padStart(8)}${NOTES[state] ? `  (${NOTES[state]})` : ''}`);
  io.out(
    aof
      ? 'persistence: AOF on (with appendfsync always, an acknowledged delivery survives a crash; with everysec, up to the last second can be lost)'
      : 'persistence: AOF off: a Redis restart loses queued deliveries. Turn it on: CONFIG SET appendonly yes (and in redis.conf).',
  );
  return 0;
}

function summary(job: Job) {
  let formId: number | undefined;
  let submissionId: number | undefined;
  try {
    const { payload } = readDelivery(job.data, job.id as string);
    formId = payload.form_id;
    submissionId = payload.submission_id;
  } catch {
    // A job with data this package did not write still gets listed, without form and submission.
  }
  return {
    id: job.id as string,
    attemptsMade: job.attemptsMade,
    maxAttempts: job.opts.attempts ?? 1,
    failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    failedReason: job.failedReason ?? null,
    formId: formId ?? null,
    submissionId: submissionId ?? null,
  };
}

async function failed({ queue }: Session, { json, io }: RunOptions, limit: number): Promise<number> {
  const jobs = (await queue.getFailed(0, limit - 1)).filter((job): job is Job => Boolean(job));
  const rows = jobs.map(summary);
  if (json) {
    io.out(JSON.stringify(rows));
    return 0;
  }
  if (rows.length === 0) {
    io.out('No failed deliveries.');
    return 0;
  }
  for (const row of rows) {
    io.out(`${row.id}  attempts ${row.attemptsMade}/${row.maxAttempts}  failed ${row.failedAt ?? '?'}  form ${row.formId ?? '?'} submission ${row.submissionId ?? '?'}`);
    io.out(`    ${(row.failedReason ?? '').split('\n')[0]}`);
  }
  const total = await queue.getFailedCount();
  if (total > rows.length) io.out(`(${rows.length} of ${total}; --limit N for more)`);
  return 0;
}

async function jobOrFail(queue: Queue, id: string): Promise<Job> {
  const job = await queue.getJob(id);
  if (!job) throw new InboxError('job_not_found', `No job ${id} on queue ${queue.name}. Completed jobs are removed after a day; list the failed ones with \`failed\`.`, { context: { id } });
  return job;
}

const CREDENTIAL_HEADER = /authorization|cookie|token|secret|password|signature|key/i;

/** Header values that authenticate are shown as their length only: CLI output ends up in tickets. */
function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, CREDENTIAL_HEADER.test(name) ? `<masked, ${value.length} chars>` : value]));
}

async function show({ queue }: Session, { json, io }: RunOptions, id: string): Promise<number> {
  const job = await jobOrFail(queue, id);
  const state = await job.getState();
  let delivery: { payload: unknown; headers: Record<string, string>; receivedAt: string; bytes: number } | { error: string };
  try {
    const stored = readDelivery(job.data, id);
    delivery = { payload: stored.payload, headers: maskHeaders(stored.headers), receivedAt: stored.receivedAt.toISOString(), bytes: stored.rawBody.byteLength };
  } catch (error) {
    delivery = { error: (error as Error).message };
  }
  const detail = { ...summary(job), state, delivery, stacktrace: job.stacktrace ?? [] };
  io.out(json ? JSON.stringify(detail) : JSON.stringify(detail, null, 2));
  return 0;
}

async function retry({ queue }: Session, { io }: RunOptions, id: string | undefined): Promise<number> {
  const retryOne = async (job: Job) => {
    const state = await job.getState();
    if (state !== 'failed') throw new InboxError('job_not_failed', `Job ${job.id} is ${state}, not failed: only dead letters can be retried.`, { context: { id: job.id, state } });
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    const attempts = job.opts.attempts ?? 1;
    io.out(`retrying ${job.id} (back in the queue with ${attempts} attempt${attempts === 1 ? '' : 's'})`);
  };
  if (id) {
    await retryOne(await jobOrFail(queue, id));
    return 0;
  }
  let retried = 0;
  // Retried jobs leave the failed set, so the first page is always the next one.
  for (let page = await queue.getFailed(0, 99); page.length > 0; page = await queue.getFailed(0, 99)) {
    for (const job of page) {
      if (!job) continue;
      await retryOne(job);
      retried += 1;
    }
  }
  io.out(`${retried} failed deliver${retried === 1 ? 'y' : 'ies'} sent back to the queue.`);
  return 0;
}

const PENDING = ['waiting', 'prioritized', 'delayed', 'active', 'waiting-children'] as const;

async function drain({ queue }: Session, { io }: RunOptions, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const counts = await queue.getJobCounts(...PENDING);
    const pending = PENDING.reduce((sum, state) => sum + (counts[state] ?? 0), 0);
    const line = PENDING.map((state) => `${state} ${counts[state] ?? 0}`).join(', ');
    if (pending === 0) {
      io.out('drained: nothing waiting, delayed or running.');
      return 0;
    }
    if (line !== last) io.out(`pending: ${line}`);
    last = line;
    if (Date.now() >= deadline) {
      io.err(`still ${pending} pending after ${timeoutMs} ms (${line}). Are workers running? Nothing was deleted.`);
      return 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
