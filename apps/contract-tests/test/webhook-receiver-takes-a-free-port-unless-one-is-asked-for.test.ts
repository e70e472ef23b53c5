// The webhook receiver: one per target, on a free port unless the settings ask for one, each
// webhook a check sets up on a path of its own; an asked-for port another process holds stops the
// run at once with a message naming the setting (issue 30, item 3).
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '@forms-api/sandbox';
import { listen, type Listening } from '@forms-api/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';
import { liveTarget } from '../src/targets/live.js';
import { freePort } from '../src/targets/process.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: false, allowPrivateWebhooks: true });
  const pro = sandbox.workspaces.find((w) => w.plan === 'pro' && w.forms.length > 0)!;
  const form = pro.forms[0]!;
  const page = (await (
    await fetch(`${sandbox.baseUrl}/open/forms/${form.id}/submissions?status=completed&per_page=1`, {
      headers: { authorization: `Bearer ${sandbox.tokens.all}` },
    })
  ).json()) as { data: Array<{ id: number }> };
  env = {
    FORMS_API_BASE_URL: sandbox.baseUrl,
    FORMS_API_TOKEN: sandbox.tokens.all,
    FORMS_API_WORKSPACE_ID: String(pro.id),
    FORMS_API_FORM_ID: String(form.id),
    FORMS_API_SUBMISSION_ID: String(page.data[0]!.id),
  };
});
afterAll(() => sandbox?.close());

async function run(overrides: Record<string, string>, args: string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'contract-receiver-'));
  const lines: string[] = [];
  try {
    const code = await runCli({
      argv: ['--target', 'live', '--no-proxy', '--explore-budget', '0', '--report-dir', dir, ...args],
      env: { ...env, ...overrides, FORMS_CONTRACT_TARGETS: '' },
      out: (line) => lines.push(line),
      err: (line) => lines.push(line),
      signal: new AbortController().signal,
    });
    const report = JSON.parse(await readFile(join(dir, 'contract-report.json'), 'utf8')) as {
      results: Array<{ name: string; outcome: string; reason?: string }>;
    };
    return { code, output: lines.join('\n'), report };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const listening = (): Promise<Listening> => listen(createServer((_req, res) => res.end()));

describe('the webhook receiver', () => {
  it('an asked-for port another process holds stops the run before anything, naming the setting (exit 2)', async () => {
    const other = await listening();
    try {
      const { port } = other;
      const result = await run(
        {
          FORMS_API_WEBHOOK_RECEIVER_PORT: String(port),
          FORMS_API_WEBHOOK_RECEIVER_URL: `http://127.0.0.1:${port}/hook`,
        },
        ['--write', '--operation', 'createFormAnswer'],
      );
      expect(result.code).toBe(2);
      expect(result.output).toContain(
        `the webhook receiver cannot listen on 127.0.0.1:${port} (FORMS_API_WEBHOOK_RECEIVER_PORT): another process holds the port`,
      );
      expect(result.output).not.toContain('EADDRINUSE');
      expect(result.report.results).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('without a port asked for, each target listens on a free port of its own, kept for its run', async () => {
    const settings = { ...env, baseUrl: sandbox.baseUrl, webhookReceiverUrl: 'https://tunnel.example/hook' };
    const a = liveTarget(settings, { write: true, proxyPass: false });
    const b = liveTarget(settings, { write: true, proxyPass: false });
    try {
      const [ra, rb] = await Promise.all([a.webhooks!.receiver(), b.webhooks!.receiver()]);
      expect(ra.port).not.toBe(rb.port);
      expect(await a.webhooks!.receiver()).toBe(ra);
      expect(a.webhooks!.receiverUrl(ra.port, '/webhook/abc')).toBe('https://tunnel.example/hook/webhook/abc');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('each webhook sees only the deliveries to its own path', async () => {
    const target = liveTarget(
      { ...env, baseUrl: sandbox.baseUrl, webhookReceiverUrl: 'http://127.0.0.1/hook' },
      { write: true, proxyPass: false },
    );
    try {
      const shared = await target.webhooks!.receiver();
      const first = shared.at('/webhook/first');
      const second = shared.at('/webhook/second');
      await fetch(`http://127.0.0.1:${shared.port}/hook/webhook/first`, { method: 'POST', body: '{"n":1}' });
      // The receiver answers after recording: the delivery is in before fetch resolves.
      expect((await first.waitFor(0, 10_000))?.rawBody.toString()).toBe('{"n":1}');
      expect(second.received).toEqual([]);
      expect(shared.received).toHaveLength(1);
    } finally {
      await target.stop();
    }
  });

  it('a live run through a tunnel-like URL on an asked-for port: every webhook check of createFormAnswer passes', async () => {
    const port = await freePort();
    const result = await run(
      {
        FORMS_API_WEBHOOK_RECEIVER_PORT: String(port),
        FORMS_API_WEBHOOK_RECEIVER_URL: `http://127.0.0.1:${port}/hook`,
      },
      ['--write', '--operation', 'createFormAnswer'],
    );
    const failed = result.report.results.filter((r) => r.outcome === 'failed');
    expect(failed).toEqual([]);
    expect(
      result.report.results.filter((r) => /webhook/i.test(r.name) && r.outcome === 'passed').length,
    ).toBeGreaterThan(2);
    expect(result.code).toBe(0);
  });
});
