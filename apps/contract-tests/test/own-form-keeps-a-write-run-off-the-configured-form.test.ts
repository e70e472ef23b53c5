// `--write` sends real webhooks to every receiver of the configured form (issue 30, item 8): with
// `--own-form` the write checks act on a form the run makes in FORMS_API_WORKSPACE_ID (the
// configured form's fields, no integration), answered once and deleted at the end, interrupted or
// not. The configured form's receiver gets nothing and its submissions are as they were.
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from '@forms-api/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/cli-args.js';
import { isContractTestsError } from '../src/errors.js';
import { OWN_FORM } from '../src/runner.js';
import { runCli } from '../src/run-cli.js';
import { runLive, startSandboxCli, stopSandboxCli, tenantEnvironment, type StartedSandbox } from './live-tenant.js';

let receiver: Server | undefined;
afterEach(async () => {
  await stopSandboxCli();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = undefined;
});

/** A receiver of the user's (a production system): counts what reaches it. */
async function startReceiver(): Promise<{ url: string; deliveries: string[] }> {
  const deliveries: string[] = [];
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      deliveries.push(body);
      res.writeHead(200).end();
    });
  });
  const { url } = await listen(receiver);
  return { url: `${url}/production`, deliveries };
}

async function api(sandbox: StartedSandbox, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${sandbox.tokens.all}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(answer.status, `${method} ${path}`).toBe(200);
  return answer.json();
}

/** Everything a run could change of the configured form and its workspace, as the API shows it. */
async function snapshot(sandbox: StartedSandbox, env: Record<string, string>) {
  const form = env.FORMS_API_FORM_ID!;
  const submissions: unknown[] = [];
  for (let page = 1; ; page++) {
    const listed = await api(sandbox, 'GET', `/open/forms/${form}/submissions?page=${page}&per_page=100`);
    submissions.push(...listed.data);
    if (page >= listed.meta.last_page) break;
  }
  const forms = await api(sandbox, 'GET', `/open/workspaces/${env.FORMS_API_WORKSPACE_ID}/forms?per_page=100`);
  return {
    // A file's signed link is signed anew on every read.
    submissions: JSON.parse(JSON.stringify(submissions, (key, v: unknown) => (key === 'file_url' ? undefined : v))),
    integrations: await api(sandbox, 'GET', `/open/forms/${form}/integrations`),
    formIds: (forms.data as Array<{ id: number }>).map((f) => f.id).sort((a, b) => a - b),
  };
}

/** The configured form with an active webhook to a receiver of the user's, shown to deliver. */
async function tenantWithAProductionReceiver(args: string[] = []) {
  const sandbox = await startSandboxCli(args);
  const env = await tenantEnvironment(sandbox);
  const production = await startReceiver();
  await api(sandbox, 'POST', `/open/forms/${env.FORMS_API_FORM_ID}/integrations`, {
    integration_id: 'webhook',
    status: 'active',
    data: { webhook_url: production.url },
  });
  // It delivers: one answer of the user's own reaches it (the receiver can fail this test).
  const fields = (await api(sandbox, 'GET', `/open/forms/${env.FORMS_API_FORM_ID}`)).properties as Array<{
    id: string;
    type: string;
  }>;
  const answer = await fetch(`${sandbox.baseUrl}/forms/${env.FORMS_API_FORM_ID}/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(answerOf(fields)),
  });
  expect(answer.status).toBe(200);
  await expect.poll(() => production.deliveries.length, { timeout: 15_000 }).toBe(1);
  production.deliveries.length = 0;
  return { sandbox, env, production };
}

/** A valid answer to the seed's forms (text, email, select and the like). */
function answerOf(fields: Array<{ id: string; type: string; select?: { options: Array<{ name: string }> } }>) {
  const values: Record<string, unknown> = { completion_time: 5 };
  for (const field of fields) {
    if (field.type === 'text') values[field.id] = 'a respondent of the user';
    if (field.type === 'email') values[field.id] = 'respondent@example.com';
    if (field.type === 'select' && field.select) values[field.id] = field.select.options[0]!.name;
  }
  return values;
}

describe('--own-form', () => {
  it('is refused without --write, without the live target, and without a workspace to make its form in', async () => {
    const withoutWrite = parseCommandLine(['--own-form', '--target', 'live'], {});
    expect(!withoutWrite.ok && isContractTestsError(withoutWrite.error) && withoutWrite.error.kind).toBe('usage');
    expect(!withoutWrite.ok && withoutWrite.error.message).toContain('--own-form needs --write');

    const withoutLive = parseCommandLine(['--own-form', '--write', '--target', 'sandbox'], {});
    expect(!withoutLive.ok && withoutLive.error.kind).toBe('usage');
    expect(!withoutLive.ok && withoutLive.error.message).toContain('add --target live');

    const dir = await mkdtemp(join(tmpdir(), 'contract-own-form-'));
    const lines: string[] = [];
    try {
      const code = await runCli({
        argv: ['--target', 'live', '--write', '--own-form', '--report-dir', dir],
        env: { FORMS_API_BASE_URL: 'http://127.0.0.1:9', FORMS_API_TOKEN: '1|t0ken' },
        out: (l) => lines.push(l),
        err: (l) => lines.push(l),
        signal: new AbortController().signal,
      });
      expect(code).toBe(2);
      expect(lines.join('\n')).toContain(
        'the live target needs FORMS_API_WORKSPACE_ID (--own-form makes its form in FORMS_API_WORKSPACE_ID)',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // The sandbox behaving like the service's code, with FORMS_API_FORM_ID set (the run's form takes
  // the configured form's fields); the contract's sandbox without it (the run's form takes the
  // spec example's fields, which every check then uses, and the proxy pass, which reads the
  // configured form, is skipped). Either way the user's forms are as they were.
  it.each([
    { behaviour: ['--behaviour', 'observed'], configuredForm: true },
    { behaviour: [], configuredForm: false },
  ])(
    'writes only to a form of its own, which is gone afterwards: no form of the user gets a webhook (forms-sandbox $behaviour, FORMS_API_FORM_ID set: $configuredForm)',
    async ({ behaviour, configuredForm }) => {
      const { sandbox, env, production } = await tenantWithAProductionReceiver(behaviour);
      const before = await snapshot(sandbox, env);
      // No FORMS_API_SUBMISSION_ID: the run answers its own form for the update checks.
      const { FORMS_API_SUBMISSION_ID: _none, FORMS_API_FORM_ID: form, ...rest } = env;
      const settings = configuredForm ? { ...rest, FORMS_API_FORM_ID: form! } : rest;

      const run = await runLive(settings, [
        '--own-form',
        ...(configuredForm ? ['--no-proxy'] : []),
        '--explore-budget',
        '60',
      ]);

      expect(production.deliveries).toEqual([]);
      expect(await snapshot(sandbox, env)).toEqual(before);

      const failed = run.report.results
        .filter((r) => r.outcome === 'failed')
        .map((r) => `${r.operationId} › ${r.name}: ${r.reason}`);
      expect(failed).toEqual([]);
      expect(run.code).toBe(0);
      // The writes ran, on the run's form: the update of a submission, the webhook round trip
      // (known drift of the service's behaviour aside, nothing is skipped or failed).
      const ran = ['passed', 'known-drift'];
      const outcomeOf = (operationId: string, name: string) =>
        run.report.results.find((r) => r.operationId === operationId && r.name === name)?.outcome;
      expect(ran).toContain(outcomeOf('createForm', OWN_FORM));
      expect(ran).toContain(outcomeOf('updateFormSubmission', 'happy path: 200 and a valid body'));
      expect(ran).toContain(outcomeOf('createFormAnswer', 'webhook round trip'));
      expect(ran).toContain(outcomeOf('deleteFormSubmission', 'happy path: 200 and a valid body'));
      if (!configuredForm) {
        expect(run.report.results.find((r) => r.operationId === 'getForm')?.outcome).toBe('passed');
        expect(run.stderr).toContain('no prism proxy pass: it reads FORMS_API_FORM_ID, which is not set');
      }
    },
    240_000,
  );

  it('deletes its form when the run is interrupted', async () => {
    const { sandbox, env, production } = await tenantWithAProductionReceiver();
    const before = await snapshot(sandbox, env);
    const dir = await mkdtemp(join(tmpdir(), 'contract-own-form-'));
    const controller = new AbortController();
    const lines: string[] = [];
    try {
      const code = await runCli({
        argv: ['--write', '--own-form', '--no-proxy', '--explore-budget', '0', '--report-dir', dir],
        env,
        out: (l) => lines.push(l),
        err: (l) => {
          lines.push(l);
          // Ctrl-C once a check has run on the run's form.
          if (/^ {2}\S \[live\] (?!createForm)/.test(l)) controller.abort();
        },
        signal: controller.signal,
      });
      expect(code).toBe(130);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const output = lines.join('\n');
    expect(output).toContain(`✓ [live] createForm › ${OWN_FORM}`);
    expect(output).not.toContain('remove it by hand');
    expect(production.deliveries).toEqual([]);
    expect(await snapshot(sandbox, env)).toEqual(before);
  }, 240_000);
});
