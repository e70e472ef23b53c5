// `forms-webhook-inbox …`: reads the command line, opens the session and runs one command (each in
// commands/: look at the queue, read the dead letters, retry, replay, drain) with one error handling.
import { parseArgs } from 'node:util';
import { isInboxError } from './errors.js';
import { DEFAULT_QUEUE } from './policy.js';
import { printable } from '@forms-api/internal/printable';
import { drain } from './commands/drain.js';
import { failed } from './commands/failed.js';
import { UsageError, type CliIo } from './commands/io.js';
import { reconcileCommand, type ReconcileFlags } from './commands/reconcile.js';
import { replayCommand, type ReplayFlags } from './commands/replay.js';
import type { InboxConnection } from './connection.js';
import { retry } from './commands/retry.js';
import { openSession, type Command, type Session } from './commands/session.js';
import { show } from './commands/show.js';
import { stats } from './commands/stats.js';

export { UsageError, type CliIo };

const USAGE = `Usage: forms-webhook-inbox <command> [--redis URL] [--cluster] [--queue NAME] [--json]

  stats                 jobs per state, and how Redis persists them (AOF, appendfsync)
  failed [--limit N]    the dead letters, newest first (default 20): id, attempts, error, form, submission
  show <id>             one job in full: payload, headers (credentials masked), error and stack, attempts
  retry <id> | --all    send failed deliveries back to the queue with a fresh set of attempts
                        (--all: each delivery failed when the command started, once)
  drain [--timeout-ms N] wait until nothing is waiting, delayed or running (default 60000 ms); deletes nothing
  reconcile --form ID [--since T] [--dry-run] [--base-url URL]
                        walk the form's submissions now, newest first down to T (default: its
                        watermark less the lookback), and queue each one no delivery brought (its
                        webhook failed or never came); reads FORMS_API_TOKEN and FORMS_API_BASE_URL.
                        --dry-run lists what would be queued
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
        'base-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`${printable((error as Error).message, { keepLines: true })}\n\n${USAGE}`);
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
    const connection = () => (values.cluster ? { cluster: redisUrl!.split(',').map((url) => url.trim()) } : redisUrl!);
    const run = commandFor(command, rest, values, connection);
    if (!redisUrl)
      throw new UsageError(
        'Where is Redis? Pass --redis redis://host:6379, or set FORMS_INBOX_REDIS_URL or REDIS_URL.',
      );
    session = await openSession(connection(), options.queue);
    return await run(session, options);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(printable(error.message));
      return 2;
    }
    if (isInboxError(error)) {
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

function commandFor(
  command: string,
  rest: string[],
  values: { limit?: string; all?: boolean; 'timeout-ms'?: string } & ReplayFlags & ReconcileFlags,
  connection: () => InboxConnection,
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
    case 'reconcile':
      return reconcileCommand(values, connection);
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
