// Before a live run the settings are checked against the tenant: a wrong token, base URL or id
// stops the run with one message naming the setting (a ContractTestsError of kind
// preflight_failed, exit 3) before any target starts, instead of dozens of failures reported as
// drift; a token pasted with its "Bearer " prefix is refused at once (exit 2). No token is ever
// printed (issue 30, item 2). FORMS_API_SUBMISSION_ID must name a completed submission of the form:
// the suite sends its answers back whole, which the service refuses for a partial one.
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '@forms-api/sandbox';
import { listen } from '@forms-api/test-support';
import { freePort } from '../src/targets/process.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantEnv } from './sandbox-tenant.js';
import { runCli } from '../src/run-cli.js';
import { liveTarget, loadLiveConfig } from '../src/targets/live.js';
import { preflightLive } from '../src/targets/preflight.js';

let sandbox: SandboxHandle;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: false });
  env = tenantEnv(sandbox);
});
afterAll(() => sandbox?.close());

async function run(overrides: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'contract-preflight-'));
  const lines: string[] = [];
  try {
    const code = await runCli({
      argv: ['--target', 'live', '--explore-budget', '0', '--report-dir', dir],
      env: { ...env, ...overrides },
      out: (line) => lines.push(line),
      err: (line) => lines.push(line),
      signal: new AbortController().signal,
    });
    const report = await readFile(join(dir, 'contract-report.json'), 'utf8').catch(() => '');
    return { code, output: lines.join('\n'), report };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One clear message, no check run, no local target started, and the token nowhere. */
function expectStoppedBeforeAnyTarget(result: Awaited<ReturnType<typeof run>>, token: string) {
  expect(result.code).toBe(3);
  expect(result.output).not.toContain('== target prism: starting');
  expect(result.output).not.toMatch(/expected 200, received/);
  expect(result.output).not.toContain(token);
  expect(result.report).not.toContain(token);
  const report = JSON.parse(result.report) as { results: unknown[]; targets: Array<{ name: string; error?: string }> };
  expect(report.results).toEqual([]);
  expect(report.targets).toEqual([expect.objectContaining({ name: 'live', error: expect.any(String) })]);
}

describe('the live settings are checked against the tenant before the run', () => {
  it('a wrong token: one message naming FORMS_API_TOKEN and the 401', async () => {
    const wrong = '99|wrongTokenValue0123456789abcdefghijklm';
    const result = await run({ FORMS_API_TOKEN: wrong });
    expectStoppedBeforeAnyTarget(result, wrong);
    expect(result.output).toMatch(/answered 401 to GET \/open\/workspaces\/\d+\/forms: FORMS_API_TOKEN is wrong/);
  });

  it('a base URL nobody answers at: unreachable, naming FORMS_API_BASE_URL', async () => {
    const result = await run({ FORMS_API_BASE_URL: `http://127.0.0.1:${await freePort()}` });
    expectStoppedBeforeAnyTarget(result, sandbox.tokens.all);
    expect(result.output).toContain('cannot reach FORMS_API_BASE_URL (http://127.0.0.1:');
  });

  it('a base URL of a web site, not the API: says to use the API base URL', async () => {
    const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'));
    const { url, close } = await listen(site);
    try {
      const result = await run({ FORMS_API_BASE_URL: url });
      expectStoppedBeforeAnyTarget(result, sandbox.tokens.all);
      expect(result.output).toContain('does not answer as the forms API');
      expect(result.output).toContain('200 text/html');
    } finally {
      await close();
    }
  });

  it('a form that does not exist: 404, naming FORMS_API_FORM_ID', async () => {
    const result = await run({ FORMS_API_FORM_ID: '987654' });
    expectStoppedBeforeAnyTarget(result, sandbox.tokens.all);
    expect(result.output).toContain('form 987654 does not exist');
    expect(result.output).toContain('check FORMS_API_FORM_ID');
  });

  it('a token without manage-integrations: 403, naming the ability', async () => {
    const result = await run({ FORMS_API_TOKEN: sandbox.tokens.withoutIntegrations! });
    expectStoppedBeforeAnyTarget(result, sandbox.tokens.withoutIntegrations!);
    expect(result.output).toContain('the token needs manage-integrations');
  });

  it('a token pasted with its "Bearer " prefix is refused before anything is sent (exit 2)', async () => {
    const result = await run({ FORMS_API_TOKEN: `Bearer ${sandbox.tokens.all}` });
    expect(result.code).toBe(2);
    expect(result.output).toContain('FORMS_API_TOKEN starts with "Bearer "');
    expect(result.output).not.toContain(sandbox.tokens.all);
  });
});

/** The id of the first submission of `formId` with that status, read over HTTP as a user would. */
async function submissionOf(formId: number, status: 'completed' | 'partial'): Promise<number | undefined> {
  const response = await fetch(`${sandbox.baseUrl}/open/forms/${formId}/submissions?status=${status}&per_page=1`, {
    headers: { authorization: `Bearer ${sandbox.tokens.all}`, accept: 'application/json' },
  });
  const body = (await response.json()) as { data: Array<{ id: number }> };
  return body.data[0]?.id;
}

describe('FORMS_API_SUBMISSION_ID names a completed submission of the form', () => {
  let formId: number;
  let partial: number;
  let completed: number;
  beforeAll(async () => {
    // A form of the Pro workspace holding both kinds (the seed keeps some fillings partial).
    for (const form of sandbox.workspaces.find((w) => w.id === Number(env.FORMS_API_WORKSPACE_ID))!.forms) {
      const [p, c] = await Promise.all([submissionOf(form.id, 'partial'), submissionOf(form.id, 'completed')]);
      if (p !== undefined && c !== undefined) [formId, partial, completed] = [form.id, p, c];
    }
    expect(partial).toBeDefined();
  });

  it('a partial submission: one message saying it must be a completed one', async () => {
    const result = await run({ FORMS_API_FORM_ID: String(formId), FORMS_API_SUBMISSION_ID: String(partial) });
    expectStoppedBeforeAnyTarget(result, sandbox.tokens.all);
    expect(result.output).toContain(
      `submission ${partial} of form ${formId} is partial: the suite sends a submission's answers back whole`,
    );
    expect(result.output).toContain('set FORMS_API_SUBMISSION_ID to a completed submission of that form');
  });

  it('a submission the form does not have: one message naming FORMS_API_SUBMISSION_ID', async () => {
    const result = await run({ FORMS_API_FORM_ID: String(formId), FORMS_API_SUBMISSION_ID: '987654' });
    expectStoppedBeforeAnyTarget(result, sandbox.tokens.all);
    expect(result.output).toContain(`form ${formId} has no submission 987654; set FORMS_API_SUBMISSION_ID`);
  });

  it('a completed submission passes', async () => {
    const settings = loadLiveConfig({
      env: { ...env, FORMS_API_FORM_ID: String(formId), FORMS_API_SUBMISSION_ID: String(completed) },
      write: true,
    });
    if (!settings.ok) throw settings.error;
    await expect(preflightLive(liveTarget(settings.value, { write: true, proxyPass: false }))).resolves.toBeUndefined();
  });
});
