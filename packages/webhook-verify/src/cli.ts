// forms-webhook: sign and verify bodies from the shell, send a signed test submission.created to
// a receiver (the offline equivalent of a "trigger test event" button). Exit codes: 0 success, 1 a failed check or request,
// 2 a usage error (told on stderr with the usage line, never as a stack trace).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isUsageError } from './core/errors.js';
import { readPrefix, webStreamSource } from '@forms-api/internal/bounded-body';
import { printable } from '@forms-api/internal/printable';
import { isWebhookVerifyError, SERVICE_WEBHOOK_TIMEOUT_MS, sign, verifyOrThrow } from './node.js';

const USAGE_LINE = 'Usage: forms-webhook <sign|verify|send> [options]   (forms-webhook --help for details)';

const HELP = `Usage: forms-webhook <sign|verify|send> [options]

  forms-webhook sign   [--body FILE] [--secret S]               print the X-Webhook-Signature value
  forms-webhook verify --signature H [--body FILE] [--secret S] exit 0 if valid, 1 with the reason if not
  forms-webhook send   URL [--body FILE] [--secret S] [--header "Name: value"]... [--timeout-ms N]
                       POST a signed submission.created (the spec's example unless --body is given)

The webhook inbox (@forms-api/webhook-inbox) has its own command: forms-webhook-inbox --help.

The body is read from --body FILE, or from standard input when --body is absent (sign, verify).
The secret comes from --secret or the FORMS_WEBHOOK_SECRET environment variable.
Exit codes: 0 success; 1 an invalid signature, a receiver answering other than 2xx/3xx, or a
request that failed; 2 a usage error (unknown command or flag, bad value, unreadable file).`;

type Output = { out: (line: string) => void; err: (line: string) => void };

const CONSOLE: Output = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** Runs the command line `argv` (without the node and script paths); resolves to the exit code. */
export async function main(argv: string[], io: Output = CONSOLE): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (error instanceof CliError || isUsageError(error)) {
      io.err(`forms-webhook: ${printable(error.message, { keepLines: true })}\n${USAGE_LINE}`);
      return 2;
    }
    throw error;
  }
}

async function run(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseArguments(argv);
  const [command, ...rest] = positionals;
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (!command) throw new CliError('Name a command.');
  const secret = values.secret ?? process.env.FORMS_WEBHOOK_SECRET;
  const needSecret = (): string => {
    if (!secret) throw new CliError('A secret is needed: pass --secret or set FORMS_WEBHOOK_SECRET.');
    return secret;
  };
  const noArguments = () => {
    if (rest.length > 0) throw new CliError(`${command} takes no arguments (got ${JSON.stringify(rest.join(' '))}).`);
  };
  switch (command) {
    case 'sign': {
      noArguments();
      io.out(await sign(needSecret(), readBody(values.body)));
      return 0;
    }
    case 'verify': {
      noArguments();
      if (!values.signature) throw new CliError('verify needs --signature "sha256=…" (the X-Webhook-Signature value).');
      try {
        await verifyOrThrow(needSecret(), readBody(values.body), values.signature);
      } catch (error) {
        if (!isWebhookVerifyError(error) || isUsageError(error)) throw error;
        io.err(`invalid (${error.kind}): ${error.message}`);
        return 1;
      }
      io.out('valid');
      return 0;
    }
    case 'send': {
      const [url, ...extra] = rest;
      if (!url || !/^https?:\/\//.test(url))
        throw new CliError('send needs the receiver URL (http:// or https://) as its argument.');
      if (extra.length > 0) throw new CliError(`send takes one URL (got also ${JSON.stringify(extra.join(' '))}).`);
      const timeoutMs = parseTimeout(values['timeout-ms']);
      const body = new Uint8Array(values.body ? readFile(values.body) : Buffer.from(exampleBody(), 'utf8'));
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'forms-webhook-cli' };
      for (const line of values.header ?? []) {
        const at = line.indexOf(':');
        if (at <= 0) throw new CliError(`--header must be "Name: value" (got ${JSON.stringify(line)}).`);
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      if (secret) headers['x-webhook-signature'] = await sign(secret, body);
      return send(url, body, headers, timeoutMs, Boolean(secret), io);
    }
    case 'inbox':
      // The inbox sits above this package: it ships its own command rather than being loaded from here.
      throw new CliError(
        'The webhook inbox has its own command: install @forms-api/webhook-inbox and run `forms-webhook-inbox` (for example `npx forms-webhook-inbox stats`).',
      );
    default:
      throw new CliError(`Unknown command ${JSON.stringify(command)}.`);
  }
}

async function send(
  url: string,
  body: Uint8Array<ArrayBuffer>,
  headers: Record<string, string>,
  timeoutMs: number,
  signed: boolean,
  io: Output,
): Promise<number> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    const reply = await replyStart(response);
    const elapsed = performance.now() - started;
    // The receiver's words reach a terminal: escaped and bounded, so they cannot move the cursor,
    // rewrite the line, ring or flood it.
    io.out(
      `${response.status} ${printable(response.statusText, { max: 100 })} in ${elapsed.toFixed(1)} ms${signed ? '' : ' (unsigned: no secret given)'}`,
    );
    if (reply.exceeded)
      io.out(
        `${printable(Array.from(reply.text).slice(0, SHOWN_REPLY_CHARS).join(''), { keepLines: true })}… (the rest of the reply was not read)`,
      );
    else if (reply.text) io.out(printable(reply.text, { max: SHOWN_REPLY_CHARS, keepLines: true }));
    return response.status >= 200 && response.status < 400 ? 0 : 1;
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'TypeError')) {
      io.err(
        `The request failed: ${printable(`${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`)}`,
      );
      return 1;
    }
    throw error;
  }
}

/** The characters of a reply `send` prints. */
const SHOWN_REPLY_CHARS = 500;

/**
 * The start of the reply, read no further than what is printed (4 bytes a character at most): an
 * endless or huge reply costs 2 kB, not the memory the timeout would let it fill. A reply that
 * breaks off fails as the request does.
 */
async function replyStart(response: Response): Promise<{ text: string; exceeded: boolean }> {
  if (response.body === null) return { text: '', exceeded: false };
  const read = await readPrefix(webStreamSource(response.body), 4 * SHOWN_REPLY_CHARS);
  if (!read.ok) throw read.error.cause;
  return { text: new TextDecoder().decode(read.value.bytes), exceeded: read.value.exceeded };
}

class CliError extends Error {}

function parseArguments(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        body: { type: 'string' },
        secret: { type: 'string' },
        signature: { type: 'string' },
        header: { type: 'string', multiple: true },
        'timeout-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // node:util's parse errors (unknown flag, missing value) are usage errors, told as such.
    if (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS'))
      throw new CliError(error.message);
    throw error;
  }
}

function parseTimeout(value: string | undefined): number {
  // As long as the service would wait.
  if (value === undefined) return SERVICE_WEBHOOK_TIMEOUT_MS;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new CliError(`--timeout-ms takes a positive whole number of milliseconds (got ${JSON.stringify(value)}).`);
  return Number(value);
}

function readBody(file: string | undefined): Buffer {
  return file === undefined ? readFileSync(0) : readFile(file);
}

function readFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CliError(
      `Cannot read --body ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? error)}.`,
    );
  }
}

// The spec's signed submission.created example, serialised compactly as the service sends it:
// read from @forms-api/spec when this file is built (tsup.config.ts), so the CLI needs no spec at run time.
declare const SPEC_EXAMPLE_BODY: string;

function exampleBody(): string {
  return SPEC_EXAMPLE_BODY;
}
