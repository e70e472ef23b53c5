#!/usr/bin/env node
// `forms-sandbox`: serves a sandbox in the foreground and says where (a summary on a terminal, one
// JSON line when piped), with request and dispatch logs on stderr; `forms-sandbox trigger` fires
// one signed webhook at a receiver of yours (trigger-cli.ts).
import { printable } from '@forms-api/internal/printable';
import { SHARED_RATE_LIMIT } from '@forms-api/types';
import { SERVICE_WEBHOOK_TIMEOUT_MS } from '@forms-api/webhook-verify';
import { UsageError, parseOptions, wholeNumber } from './cli-args.js';
import {
  SANDBOX_BEHAVIOURS,
  SANDBOX_FAULTS,
  isSandboxError,
  startSandbox,
  type SandboxBehaviour,
  type SandboxFault,
  type SandboxHandle,
} from './index.js';
import { SERVICE_RATE_LIMIT, type RateLimitOptions } from './ratelimit.js';
import { runTrigger } from './trigger-cli.js';

const wrap = (words: readonly string[], indent: string) =>
  words
    .reduce(
      (lines, word) => {
        const last = lines[lines.length - 1]!;
        if (last.length + word.length + 2 > 98 - indent.length) lines.push(word);
        else lines[lines.length - 1] = last ? `${last}, ${word}` : word;
        return lines;
      },
      [''],
    )
    .join(`,\n${indent}`);

const HELP = `Usage: forms-sandbox [options]                serve a sandbox tenant until stopped
       forms-sandbox trigger --to <url> [...]  fire one signed webhook at your receiver
                                               (forms-sandbox trigger --help)

Serves a stateful local tenant of the forms service's open API, with seeded workspaces, forms,
submissions and tokens, and sends signed submission.created webhooks. Once listening it prints
its base URL, admin token, tokens and workspaces: a summary on a terminal, one JSON line when
stdout is not a terminal (or with --json). Request and delivery logs go to stderr, never tokens.

  --behaviour <name>        ${SANDBOX_BEHAVIOURS.join(' or ')}: the published contract (default), or the service's
                            code with its known drift (spec/drift.yaml)
  --port <n>                the port (default 0: a free one)
  --host <address>          the address to listen on (default 127.0.0.1)
  --public-url <url>        where clients reach it, when behind a proxy: every URL it writes starts
                            with it
  --allowed-host <name>     a name besides its IP addresses and localhost that requests may send
                            in Host (repeatable); any other is refused, against DNS rebinding
  --seed <file>             a JSON seed fixture instead of the built-in one
  --fixed-tokens            keep the built-in seed's tokens as the README lists them (default: new
                            secrets on every start, printed once it listens)
  --allow-private-webhooks  allow http and local or private webhook receivers (development)
  --webhook-timeout-ms <n>  the limit of one webhook exchange (default ${SERVICE_WEBHOOK_TIMEOUT_MS}, the service's)
  --rate-limit <n>          requests a minute per user (default ${SHARED_RATE_LIMIT.limit}, the service's); 0 or
                            --no-rate-limit: none (as forms-contract's --rate-limit 0)
  --trusted-proxies <n>     reverse proxies in front whose X-Forwarded-For is believed (default 0)
  --admin-token <token>     the token of POST /__sandbox/reset (default: a random one per start)
  --fault <name>            break the contract in a named way, for a contract suite's self-test
                            (repeatable), one of:
                            ${wrap(SANDBOX_FAULTS, ' '.repeat(28))}
  --json                    print the JSON line even on a terminal
  --version                 print the version
  -h, --help                this text

SIGINT, SIGTERM and SIGHUP stop it cleanly, and so does the end of the npx, npm or pnpm command
that started it. Example: npx --yes @forms-api/sandbox --port 4010 --allow-private-webhooks`;

const OPTIONS = {
  behaviour: { type: 'string', default: 'contract' },
  port: { type: 'string', default: '0' },
  host: { type: 'string', default: '127.0.0.1' },
  'public-url': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  seed: { type: 'string' },
  'fixed-tokens': { type: 'boolean', default: false },
  'allow-private-webhooks': { type: 'boolean', default: false },
  'webhook-timeout-ms': { type: 'string' },
  'rate-limit': { type: 'string' },
  'no-rate-limit': { type: 'boolean', default: false },
  'trusted-proxies': { type: 'string' },
  'admin-token': { type: 'string' },
  fault: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What a person at a terminal needs to start: where it is, which token does what, which forms exist. */
function summary(sandbox: SandboxHandle): string {
  const width = Math.max(...Object.keys(sandbox.tokens).map((n) => n.length));
  return [
    `forms-sandbox (${sandbox.behaviour} behaviour) listening on ${sandbox.baseUrl}`,
    '',
    'Tokens (send as Authorization: Bearer <token>):',
    ...Object.entries(sandbox.tokens).map(([name, token]) => `  ${name.padEnd(width)}  ${token}`),
    `Admin token (POST ${sandbox.baseUrl}/__sandbox/reset only): ${sandbox.adminToken}`,
    '',
    'Workspaces and forms (id slug):',
    ...sandbox.workspaces.flatMap((w) => [
      `  ${w.id} ${w.name} (${w.plan})`,
      ...w.forms.map((f) => `      ${f.id} ${f.slug}${f.captcha ? ' (captcha)' : ''}`),
    ]),
    '',
    `Try: curl -H 'Authorization: Bearer ${sandbox.tokens.read}' ${sandbox.baseUrl}/open/workspaces/1/forms`,
    'Ctrl-C stops it. Piped (or with --json), it prints one JSON line instead.',
  ].join('\n');
}

async function serve(args: string[]): Promise<void> {
  const values = parseOptions(args, OPTIONS);
  if (values.help) return void console.log(HELP);
  const sandbox = await startSandbox({
    behaviour: values.behaviour as SandboxBehaviour,
    port: wholeNumber('port', values.port) ?? 0,
    host: values.host,
    ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
    allowedHosts: values['allowed-host'] ?? [],
    ...(values.seed ? { seed: values.seed } : {}),
    fixedTokens: values['fixed-tokens'],
    allowPrivateWebhooks: values['allow-private-webhooks'],
    ...(values['webhook-timeout-ms']
      ? { webhookTimeoutMs: wholeNumber('webhook-timeout-ms', values['webhook-timeout-ms'])! }
      : {}),
    rateLimit: rateLimitFlag(values['no-rate-limit'], wholeNumber('rate-limit', values['rate-limit'])),
    trustedProxies: wholeNumber('trusted-proxies', values['trusted-proxies']) ?? 0,
    ...(values['admin-token'] !== undefined ? { adminToken: values['admin-token'] } : {}),
    faults: (values.fault ?? []) as SandboxFault[],
    log: (line) => process.stderr.write(`[sandbox] ${line}\n`),
  });
  const workspaces = sandbox.workspaces.map((w) => ({
    id: w.id,
    name: w.name,
    plan: w.plan,
    forms: w.forms.map((f) => ({ id: f.id, slug: f.slug, captcha: f.captcha })),
  }));
  process.stdout.write(
    process.stdout.isTTY && !values.json
      ? `${summary(sandbox)}\n`
      : `${JSON.stringify({ behaviour: sandbox.behaviour, baseUrl: sandbox.baseUrl, adminToken: sandbox.adminToken, tokens: sandbox.tokens, workspaces })}\n`,
  );
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`[sandbox] ${why}: shutting down\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
  // npx, npm and pnpm start a command through `sh -c`, which does not pass a signal on: killing
  // the package manager leaves its shell's child running. The child notices its parent is gone.
  if (process.env.npm_command !== undefined || process.env.npm_lifecycle_event !== undefined) {
    const parent = process.ppid;
    setInterval(() => process.ppid !== parent && stop('the command that started it ended'), 250).unref();
  }
}

/** `--rate-limit 0` is no limit, as `--no-rate-limit` (and as the contract suite's `--rate-limit 0`), not a limit nothing passes. */
function rateLimitFlag(off: boolean | undefined, perMinute: number | undefined): RateLimitOptions | false {
  if (off || perMinute === 0) return false;
  return perMinute === undefined ? SERVICE_RATE_LIMIT : { limit: perMinute, windowMs: 60_000 };
}

const args = process.argv.slice(2);
try {
  await (args[0] === 'trigger' ? runTrigger(args.slice(1)) : serve(args));
} catch (error) {
  if (error instanceof UsageError || (isSandboxError(error) && error.kind !== 'listen_failed')) {
    console.error(
      `forms-sandbox: ${printable((error as Error).message, { keepLines: true })}\n\n${args[0] === 'trigger' ? 'Run forms-sandbox trigger --help for its options.' : HELP}`,
    );
    process.exit(2);
  }
  console.error(`forms-sandbox: ${printable((error as Error).message)}`);
  process.exit(1);
}
