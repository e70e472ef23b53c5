#!/usr/bin/env node
// `pnpm sandbox`: starts the sandbox in the foreground. Prints one JSON line on stdout once
// listening (behaviour, baseUrl, adminToken, tokens, workspaces), then request and dispatch logs
// on stderr.
import { parseArgs } from 'node:util';
import {
  SANDBOX_BEHAVIOURS,
  SANDBOX_FAULTS,
  isSandboxError,
  startSandbox,
  type SandboxBehaviour,
  type SandboxFault,
} from './index.js';

const USAGE = `Usage: forms-sandbox [--behaviour contract|observed] [--port N] [--host H]
                     [--public-url URL] [--seed FILE]
                     [--allow-private-webhooks] [--webhook-timeout-ms N]
                     [--rate-limit N | --no-rate-limit] [--trusted-proxies N]
                     [--admin-token TOKEN] [--allowed-host NAME]... [--fault NAME]...
Behaviours: ${SANDBOX_BEHAVIOURS.join(', ')} (default contract)
Faults: ${SANDBOX_FAULTS.join(', ')}`;

function fail(message: string): never {
  console.error(`forms-sandbox: ${message}\n${USAGE}`);
  process.exit(2);
}

let values: ReturnType<typeof parse>['values'];
function parse() {
  return parseArgs({
    options: {
      behaviour: { type: 'string', default: 'contract' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      'public-url': { type: 'string' },
      seed: { type: 'string' },
      'allow-private-webhooks': { type: 'boolean', default: false },
      'webhook-timeout-ms': { type: 'string' },
      'rate-limit': { type: 'string' },
      'no-rate-limit': { type: 'boolean', default: false },
      'trusted-proxies': { type: 'string' },
      'admin-token': { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      fault: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
try {
  ({ values } = parse());
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const number = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) fail(`--${name} must be a whole number (got ${raw}).`);
  return Number(raw);
};
const rateLimit = values['no-rate-limit']
  ? false
  : { limit: number('rate-limit', values['rate-limit']) ?? 100, windowMs: 60_000 };

try {
  const sandbox = await startSandbox({
    behaviour: values.behaviour as SandboxBehaviour,
    port: number('port', values.port) ?? 0,
    host: values.host!,
    ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
    ...(values.seed ? { seed: values.seed } : {}),
    allowPrivateWebhooks: values['allow-private-webhooks']!,
    ...(values['webhook-timeout-ms']
      ? { webhookTimeoutMs: number('webhook-timeout-ms', values['webhook-timeout-ms'])! }
      : {}),
    rateLimit,
    trustedProxies: number('trusted-proxies', values['trusted-proxies']) ?? 0,
    allowedHosts: values['allowed-host'] ?? [],
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
    `${JSON.stringify({ behaviour: sandbox.behaviour, baseUrl: sandbox.baseUrl, adminToken: sandbox.adminToken, tokens: sandbox.tokens, workspaces })}\n`,
  );
  const stop = (signal: string) => {
    process.stderr.write(`[sandbox] ${signal}: shutting down\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
} catch (error) {
  if (isSandboxError(error) && error.kind !== 'listen_failed') fail(error.message);
  console.error(`forms-sandbox: ${(error as Error).message}`);
  process.exit(1);
}
