// Test support for the hostile-* tests: a misbehaving tenant (node:http on 127.0.0.1, a free port)
// and one run of the `contract` command against it as the live target, capturing everything the run
// prints and writes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from '@forms-api/test-support';
import { runCli } from '../src/run-cli.js';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface HostileTenant {
  readonly baseUrl: string;
  close(): Promise<void>;
}

export async function startHostileTenant(handler: Handler): Promise<HostileTenant> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  const { url, close } = await listen(server);
  return { baseUrl: url, close };
}

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly json: string;
  readonly xml: string;
}

/** The tokens of the run: main and every secondary one, Sanctum-shaped (`id|secret`). */
export const TOKENS = {
  FORMS_API_TOKEN: '41|mAinSecretToken0123456789abcdefghijKLMNOP',
  FORMS_API_TOKEN_WITHOUT_FORMS_READ: '42|nOreadSecret0123456789abcdefghijKLMNOPQ',
  FORMS_API_TOKEN_WITHOUT_FORMS_WRITE: '43|nOwriteSecret0123456789abcdefghijKLMNOPQ',
  FORMS_API_TOKEN_WITHOUT_MANAGE_INTEGRATIONS: '44|nOintegrationsSecret0123456789abcdefghij',
  FORMS_API_TOKEN_WITHOUT_ABILITIES: '45|nOabilitiesSecret0123456789abcdefghijKLM',
  FORMS_API_TOKEN_INTEGRATIONS_ONLY: '46|iNtegrationsOnlySecret0123456789abcdefgh',
} as const;

/** Runs `contract` with the tenant as the only target (no proxy pass, no exploring unless asked), reports in a temporary directory. */
export async function runAgainst(
  tenant: HostileTenant,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<CliRun> {
  const dir = await mkdtemp(join(tmpdir(), 'contract-hostile-'));
  const stdout: string[] = [];
  const stderr: string[] = [];
  try {
    const code = await runCli({
      // The written checks only (the explorer is tested on its own); a test may pass --explore-budget.
      // No preflight: these tenants answer nothing like the API, and the run's handling is the test.
      argv: ['--no-proxy', '--no-preflight', '--explore-budget', '0', '--report-dir', dir, ...args],
      env: {
        FORMS_CONTRACT_TARGETS: 'live',
        FORMS_API_BASE_URL: tenant.baseUrl,
        FORMS_API_WORKSPACE_ID: '1',
        FORMS_API_FORM_ID: '2',
        ...TOKENS,
        ...env,
      },
      out: (line) => stdout.push(line),
      err: (line) => stderr.push(line),
      signal: new AbortController().signal,
    });
    return {
      code,
      stdout: stdout.join('\n'),
      stderr: stderr.join('\n'),
      json: await readFile(join(dir, 'contract-report.json'), 'utf8'),
      xml: await readFile(join(dir, 'contract-report.xml'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
