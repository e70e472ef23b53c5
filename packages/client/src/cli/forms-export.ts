// forms-export: a form's submissions into an NDJSON or CSV file, for users who never write code.
// Node-only (files, the terminal), so it lives apart from the client's runtime-neutral modules and
// is built as a command. Exit codes: 0 written, 1 the service or the file failed, 2 a usage error.
import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { printable } from '@forms-api/internal/printable';
import { SHARED_RATE_LIMIT } from '@forms-api/types';
import { createFormsClient } from '../client.js';
import { isFormsApiError } from '../errors.js';
import { exportSubmissions, type ExportProgress } from '../export.js';

/** The service's shared bucket (the spec's, per user) in requests a minute: the export's pace and its ceiling. */
const SERVICE_PER_MINUTE = (SHARED_RATE_LIMIT.limit * 60) / SHARED_RATE_LIMIT.windowSeconds;

const USAGE_LINE =
  'Usage: forms-export --form ID --format ndjson|csv [--since CURSOR|TIME] [--status completed|partial|all] [--out FILE]   (--help for details)';

const HELP = `${USAGE_LINE.replace(/ {3}\(--help.*$/, '')}

Writes every submission of the form, newest first, each once, with its answers keyed by field id
and joined with the field's name and type: one JSON object a line (ndjson), or one column per
field (csv, which spreadsheets open; a cell that would start a formula begins with an apostrophe).

  --form ID         the form's id (a number: forms.get or the form's URL in the service)
  --format F        ndjson or csv
  --since S         only what came after: the cursor a previous run printed, or a time in UTC
                    (2026-11-28T10:00:00Z), which includes that second
  --status S        completed, partial or all (default all)
  --out FILE        write to FILE (through FILE.partial, renamed when complete); default stdout
  --rate N          requests a minute, at most the service's ${SERVICE_PER_MINUTE} a minute per user (default ${SERVICE_PER_MINUTE})

The token comes from FORMS_API_TOKEN (a personal access token with forms-read), the service from
FORMS_API_BASE_URL (default https://api.opnform.com). At the end a line on stderr gives the cursor
to pass as --since next time, so the next run writes only what is new. Progress is shown on
stderr when it is a terminal.
Exit codes: 0 done; 1 the service refused or failed, or the file could not be written; 2 a usage
error.`;

const DEFAULT_BASE_URL = 'https://api.opnform.com';

/** A usage mistake: told with the usage line, exit 2. Never leaves this module. */
class UsageError extends Error {}

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

const PROCESS_IO: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/** Runs the command line `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: string[], io: Io = PROCESS_IO): Promise<number> {
  const say = (line: string) => io.stderr.write(`${line}\n`);
  try {
    return await run(argv, io, say);
  } catch (error) {
    if (error instanceof UsageError) {
      say(`forms-export: ${printable(error.message, { keepLines: true })}\n${USAGE_LINE}`);
      return 2;
    }
    // The client's messages never hold the token; what the service wrote in them is escaped.
    if (isFormsApiError(error)) {
      say(`forms-export: ${error.kind}: ${printable(error.message)}`);
      return error.kind === 'invalid_option' ? 2 : 1;
    }
    const { code, message } = error as NodeJS.ErrnoException;
    if (typeof code === 'string') {
      say(`forms-export: ${printable(message)}`);
      return 1;
    }
    throw error;
  }
}

async function run(argv: string[], io: Io, say: (line: string) => void): Promise<number> {
  const { values } = parse(argv);
  if (values.help) {
    io.stdout.write(`${HELP}\n`);
    return 0;
  }
  const form = Number(values.form);
  if (!values.form || !Number.isSafeInteger(form) || form < 1)
    throw new UsageError('--form needs the form id, a positive integer.');
  if (values.format !== 'ndjson' && values.format !== 'csv') throw new UsageError('--format needs ndjson or csv.');
  const status = values.status ?? 'all';
  if (status !== 'completed' && status !== 'partial' && status !== 'all')
    throw new UsageError('--status needs completed, partial or all.');
  const rate = values.rate === undefined ? SERVICE_PER_MINUTE : Number(values.rate);
  if (!(rate > 0 && rate <= SERVICE_PER_MINUTE))
    throw new UsageError(`--rate needs a number of requests a minute, above 0 and at most ${SERVICE_PER_MINUTE}.`);
  const token = io.env.FORMS_API_TOKEN;
  if (!token) throw new UsageError('Set FORMS_API_TOKEN to a personal access token of the service (forms-read).');

  const tty = io.stderr.isTTY === true;
  // One line rewritten in place (only on a terminal; a log gets the summary alone).
  const show = (line: string) => {
    if (tty) io.stderr.write(`\r\x1b[2K${line}`);
  };
  const client = createFormsClient({
    baseUrl: io.env.FORMS_API_BASE_URL || DEFAULT_BASE_URL,
    token,
    pacing: {
      requestsPerMinute: rate,
      // Pacing waits are the steady rhythm; a 429's wait (someone else spends the budget) is news.
      onWait: ({ waitMs, reason }) => {
        if (reason === 'rate_limited') show(`forms-export: the service asked to wait ${Math.ceil(waitMs / 1000)} s`);
      },
    },
  });
  const out = values.out;
  const file = out === undefined ? undefined : createWriteStream(`${out}.partial`, { flags: 'w' });
  const target: NodeJS.WritableStream = file ?? io.stdout;
  if (file) await Promise.race([once(file, 'open'), once(file, 'error').then(([e]) => Promise.reject(e as Error))]);
  try {
    const summary = await exportSubmissions(client, form, {
      format: values.format,
      status,
      ...(values.since !== undefined && { since: values.since }),
      to: async (text) => {
        if (!target.write(text)) await once(target, 'drain');
      },
      onProgress: (p) => show(progressLine(p)),
    });
    if (file) {
      await close(file);
      renameSync(`${out}.partial`, out!);
    }
    if (tty) io.stderr.write('\r\x1b[2K');
    const where = out === undefined ? '' : ` to ${printable(out)}`;
    say(
      `forms-export: wrote ${summary.written} submission(s) of form ${form}${where} in ${summary.pages + summary.formReads} requests.`,
    );
    say(
      summary.cursor === null
        ? 'forms-export: nothing to resume from yet (the form has no submissions).'
        : `forms-export: next time, to write only what is new: --since '${summary.cursor}'`,
    );
    return 0;
  } catch (error) {
    if (tty) io.stderr.write('\n');
    if (file) {
      file.destroy();
      rmSync(`${out}.partial`, { force: true });
    }
    throw error;
  }
}

function progressLine(p: ExportProgress): string {
  const of = p.total === undefined ? '' : ` (the list holds ${p.total})`;
  return `forms-export: ${p.written} written${of} · ${p.pages} page(s) read`;
}

async function close(file: WriteStream): Promise<void> {
  file.end();
  await once(file, 'finish');
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        form: { type: 'string' },
        format: { type: 'string' },
        since: { type: 'string' },
        status: { type: 'string' },
        out: { type: 'string' },
        rate: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
