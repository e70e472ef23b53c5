// `forms-webhook-inbox …`: look at the queue, read the
// dead letters, send them back for another run, and wait for the queue to empty before a deploy.
import { parseArgs } from 'node:util';
import { Job, Queue } from 'bullmq';
import { createRedisClient, describeTarget, type InboxConnection, type RedisClient } from './connection.js';
import { readDelivery } from './delivery.js';
import { InboxError } from './errors.js';
import { DEFAULT_QUEUE } from './policy.js';
import { printable, printableJson } from './printable.js';
import { inboxQueuePrefix } from './queue-keys.js';
import { UsageError, type CliIo } from './cli-io.js';
import { replayCommand, type ReplayFlags } from './replay-cli.js';

export { UsageError, type CliIo };

const USAGE = `Usage: forms-webhook-inbox <command> [--redis URL] [--cluster] [--queue NAME] [--json]

  stats                 jobs per state, and how Redis persists them (AOF, appendfsync)
  failed [--limit N]    the dead letters, newest first (default 20): id, attempts, error, form, submission
  show <id>             one job in full: payload, headers (credentials masked), error and stack, attempts
  retry <id> | --all    send failed deliveries back to the queue with a fresh set of attempts
                        (--all: each delivery failed when the command started, once)
  drain [--timeout-ms N] wait until nothing is waiting, delayed or running (default 60000 ms); deletes nothing
  replay --status failed|completed [--since T] [--until T] [--form ID] [--dry-run]
                        run finished deliveries again from their stored bytes, re-verified with
                        --secret (repeatable while rotating) or FORMS_WEBHOOK_SECRET; T is an ISO
                        date-time or an age such as 30m, 6h, 2d. --dry-run lists what would be replayed

Redis comes from --redis, or FORMS_INBOX_REDIS_URL, or REDIS_URL. With --cluster it is a Redis Cluster, and the
URL may list several of its nodes, comma-separated. The queue defaults to ${DEFAULT_QUEUE}.
Exit codes: 0 done, 1 failed (Redis unreachable, job not found, drain timed out, a chosen delivery that cannot be replayed), 2 usage error.`;

const consoleIo: CliIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** Runs one inbox command; resolves to the process exit code. */
export async function runInboxCli(args: string[], io: CliIo = consoleIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        redis: { type: 'string' },
        cluster: { type: 'boolean' },
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
    if (!redisUrl)
      throw new UsageError(
        'Where is Redis? Pass --redis redis://host:6379, or set FORMS_INBOX_REDIS_URL or REDIS_URL.',
      );
    session = await openSession(
      values.cluster ? { cluster: redisUrl.split(',').map((url) => url.trim()) } : redisUrl,
      options.queue,
    );
    return await run(session, options);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof InboxError) {
      io.err(printable(error.message));
      return 1;
    }
    // Anything else is unexpected: one line that says so, not a stack trace in the operator's face.
    io.err(
      `Unexpected error: ${printable(error instanceof Error ? error.message : String(error))}. Run again with --json for the same command, or report it with this line.`,
    );
    return 1;
  } finally {
    await session?.close();
  }
}

interface Session {
  queue: Queue;
  client: RedisClient;
  close(): Promise<void>;
}

interface RunOptions {
  queue: string;
  json: boolean;
  io: CliIo;
}

type Command = (session: Session, options: RunOptions) => Promise<number>;

function commandFor(
  command: string,
  rest: string[],
  values: { limit?: string; all?: boolean; 'timeout-ms'?: string } & ReplayFlags,
): Command {
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
      if (!id && !values.all)
        throw new UsageError('retry needs a job id (see `failed`), or --all for every failed delivery.');
      if (id && values.all) throw new UsageError('retry takes a job id or --all, not both.');
      return (session, options) => retry(session, options, id);
    }
    case 'drain':
      return (session, options) =>
        drain(session, options, positiveNumber('--timeout-ms', values['timeout-ms'] ?? '60000'));
    case 'replay':
      return replayCommand(values);
    default:
      throw new UsageError(`Unknown inbox command ${JSON.stringify(command)}.\n\n${USAGE}`);
  }
}

function positiveNumber(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`${flag} must be a positive whole number (got ${JSON.stringify(text)}).`);
  return value;
}

async function openSession(url: InboxConnection, queueName: string): Promise<Session> {
  const client = createRedisClient(url, 'oneshot');
  client.on('error', () => {}); // the outcome is reported once, below
  await new Promise<void>((resolve, reject) => {
    const fail = (error?: Error) =>
      reject(
        new InboxError(
          'redis_unavailable',
          `Could not reach Redis at ${describeTarget(client)}${error ? ` (${error.message})` : ''}. Check --redis (or FORMS_INBOX_REDIS_URL) and that Redis runs.`,
          {
            context: { target: describeTarget(client) },
          },
        ),
      );
    client.once('ready', () => resolve());
    client.once('error', fail);
    client.once('end', () => fail());
  }).catch(async (error) => {
    client.disconnect();
    throw error;
  });
  const queue = new Queue(queueName, { connection: client, prefix: inboxQueuePrefix(queueName) });
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
  const appendfsync = aof ? await appendfsyncOf(client) : null;
  if (json) {
    io.out(JSON.stringify({ queue: name, redis: describeTarget(client), counts, aof, appendfsync }));
    return 0;
  }
  io.out(`queue ${name} on ${describeTarget(client)}`);
  for (const state of STATES)
    io.out(
      `  ${state.padEnd(17)}${String(counts[state] ?? 0).padStart(8)}${NOTES[state] ? `  (${NOTES[state]})` : ''}`,
    );
  io.out(
    aof
      ? `persistence: AOF on, appendfsync ${appendfsync ?? 'unknown'}: ${FSYNC_MEANS[appendfsync ?? 'unknown'] ?? FSYNC_MEANS.unknown}`
      : 'persistence: AOF off: a Redis restart loses queued deliveries. Turn it on: CONFIG SET appendonly yes (and in redis.conf).',
  );
  return 0;
}

const FSYNC_MEANS: Record<string, string> = {
  always: 'Redis writes each acknowledged delivery to disk before it answers, so it survives a crash.',
  everysec:
    'a crash of Redis or its machine can lose the deliveries acknowledged in the last second (a clean restart loses none). For none: CONFIG SET appendfsync always.',
  no: 'the operating system decides when to write, so a crash can lose many seconds of acknowledged deliveries. Prefer always (or everysec).',
  unknown:
    'this Redis refused CONFIG GET (managed Redis often does): ask its provider how often the AOF is written to disk.',
};

/** The AOF fsync policy Redis reports, or null when CONFIG GET is refused (managed Redis). */
async function appendfsyncOf(client: RedisClient): Promise<string | null> {
  try {
    const [, value] = (await client.config('GET', 'appendfsync')) as [string, string];
    return value ?? null;
  } catch {
    return null;
  }
}

/**
 * A job by id, even one whose stored data is not JSON (BullMQ's own reader throws on it): that one
 * comes back with a marker in place of its data, which `readDelivery` reports as `corrupt_job`.
 */
async function loadJob({ queue, client }: Session, id: string): Promise<Job | undefined> {
  try {
    return await queue.getJob(id);
  } catch (error) {
    const raw = await client.hgetall(queue.toKey(id));
    if (Object.keys(raw).length === 0) return undefined;
    const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
    let opts = {};
    try {
      opts = JSON.parse(raw.opts ?? '{}');
    } catch {
      // Unreadable options too: the job is listed with the defaults.
    }
    const json = {
      id,
      name: raw.name ?? '',
      data: JSON.stringify({ unreadable: (error as Error).message }),
      opts,
      timestamp: number(raw.timestamp) ?? 0,
      finishedOn: number(raw.finishedOn),
      processedOn: number(raw.processedOn),
      failedReason: raw.failedReason,
      attemptsMade: number(raw.atm) ?? 0,
      stacktrace: raw.stacktrace ?? '[]',
    };
    return Job.fromJSON(queue, json as never, id);
  }
}

/** BullMQ's reason for a job whose lock expired more often than `maxStalledCount` allows. */
const STALLED_REASON = 'job stalled more than allowable limit';

/** Ids of the failed set, newest first (ids only: a job with unreadable data cannot break the list). */
const failedIds = (queue: Queue, start: number, end: number) => queue.getRanges(['failed'], start, end, false);

const finishedAt = (job: Job) => (job.finishedOn ? new Date(job.finishedOn).toISOString() : null);

/** When the job ended, named by how (`show` prints jobs of every state); neither while it has not ended. */
function ending(job: Job, state: string): { completedAt: string | null } | { failedAt: string | null } | object {
  if (state === 'completed') return { completedAt: finishedAt(job) };
  return state === 'failed' ? { failedAt: finishedAt(job) } : {};
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
    failedReason: job.failedReason ?? null,
    formId: formId ?? null,
    submissionId: submissionId ?? null,
  };
}

async function failed(session: Session, { json, io }: RunOptions, limit: number): Promise<number> {
  const { queue } = session;
  const jobs = (await Promise.all((await failedIds(queue, 0, limit - 1)).map((id) => loadJob(session, id)))).filter(
    (job): job is Job => Boolean(job),
  );
  const rows = jobs.map((job) => ({
    ...summary(job),
    failedAt: finishedAt(job),
  }));
  if (json) {
    io.out(JSON.stringify(rows));
    return 0;
  }
  if (rows.length === 0) {
    io.out('No failed deliveries.');
    return 0;
  }
  for (const row of rows) {
    io.out(
      `${row.id}  attempts ${row.attemptsMade}/${row.maxAttempts}  failed ${row.failedAt ?? '?'}  form ${row.formId ?? '?'} submission ${row.submissionId ?? '?'}`,
    );
    // The reason may quote form answers: escaped (ESC, CR, BEL… as \uXXXX) and on one line.
    io.out(`    ${printable(row.failedReason ?? '')}`);
    if (row.failedReason === STALLED_REASON)
      io.out(
        "    (BullMQ's words: its worker stopped renewing the lock twice, because the process died or a handler blocked the event loop; `show` prints the job's log)",
      );
  }
  const total = await queue.getFailedCount();
  if (total > rows.length) io.out(`(${rows.length} of ${total}; --limit N for more)`);
  return 0;
}

async function jobOrFail(session: Session, id: string): Promise<Job> {
  const { queue } = session;
  const job = await loadJob(session, id);
  if (!job)
    throw new InboxError(
      'job_not_found',
      `No job ${id} on queue ${queue.name}. Completed jobs are removed after a day; list the failed ones with \`failed\`.`,
      { context: { id } },
    );
  return job;
}

/**
 * A header is masked when any part of its name looks like a credential (`x-auth`, `x-pass`,
 * `x-sig`, `x-jwt`, `x-session`, `x-credentials`, …: fragments, not a list of names, so a custom
 * header the integration adds is caught too), or when its value looks like one (a scheme such as
 * `Bearer`/`Basic`, or a JWT) whatever its name. Masking too much costs a look at Redis; too little,
 * a leaked secret.
 */
const CREDENTIAL_NAME =
  /auth|cookie|token|secret|pass|sig|key|cred|session|jwt|bearer|private|otp|nonce|ticket|hmac|api/i;
const CREDENTIAL_VALUE = /^\s*(bearer|basic|digest|token|hmac|apikey|negotiate)\s|^\s*eyJ[\w-]+\.[\w-]+/i;

/** Header values that authenticate are shown as their length only: CLI output ends up in tickets. */
function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      CREDENTIAL_NAME.test(name) || CREDENTIAL_VALUE.test(value) ? `<masked, ${value.length} chars>` : value,
    ]),
  );
}

type ShownDelivery =
  | { payload: unknown; headers: Record<string, string>; receivedAt: string; bytes: number }
  | {
      payload: null;
      body: 'not kept: over the completed body budget';
      headers: Record<string, string>;
      receivedAt: string;
      bytes: number | null;
    }
  | { error: string };

function shownDelivery(job: Job, id: string): ShownDelivery {
  try {
    const stored = readDelivery(job.data, id);
    return {
      payload: stored.payload,
      headers: maskHeaders(stored.headers),
      receivedAt: stored.receivedAt.toISOString(),
      bytes: stored.rawBody.byteLength,
    };
  } catch (error) {
    if ((error as InboxError).kind !== 'body_not_kept') return { error: (error as Error).message };
    const kept = job.data as { headers?: Record<string, string>; receivedAt?: number; bytes?: number };
    return {
      payload: null,
      body: 'not kept: over the completed body budget',
      headers: maskHeaders(kept.headers ?? {}),
      receivedAt: new Date(kept.receivedAt ?? 0).toISOString(),
      bytes: kept.bytes ?? null,
    };
  }
}

async function show(session: Session, { json, io }: RunOptions, id: string): Promise<number> {
  const job = await jobOrFail(session, id);
  const state = await job.getState();
  const { logs } = await session.queue.getJobLogs(id);
  const detail = {
    ...summary(job),
    state,
    ...ending(job, state),
    delivery: shownDelivery(job, id),
    logs,
    stacktrace: job.stacktrace ?? [],
  };
  io.out(printableJson(detail, json ? undefined : 2));
  return 0;
}

async function retry(session: Session, { io }: RunOptions, id: string | undefined): Promise<number> {
  const { queue } = session;
  const retryOne = async (job: Job) => {
    const state = await job.getState();
    if (state !== 'failed')
      throw new InboxError(
        'job_not_failed',
        `Job ${job.id} is ${state}, not failed: only dead letters can be retried.`,
        { context: { id: job.id, state } },
      );
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    const attempts = job.opts.attempts ?? 1;
    io.out(`retrying ${job.id} (back in the queue with ${attempts} attempt${attempts === 1 ? '' : 's'})`);
  };
  if (id) {
    await retryOne(await jobOrFail(session, id));
    return 0;
  }
  // The failed set as it is now, once each: a delivery that fails again while the command runs is
  // back in the set, and must not be sent again (with a handler that keeps failing, for ever).
  const snapshot = await failedIds(queue, 0, -1);
  let retried = 0;
  let moved = 0;
  for (const failedId of snapshot) {
    const job = await loadJob(session, failedId);
    if (!job || (await job.getState()) !== 'failed') {
      moved += 1; // retried or removed by someone else meanwhile
      continue;
    }
    await retryOne(job);
    retried += 1;
  }
  io.out(
    `${retried} failed deliver${retried === 1 ? 'y' : 'ies'} sent back to the queue${moved ? ` (${moved} no longer failed, left alone)` : ''}.`,
  );
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
