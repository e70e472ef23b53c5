// Every sample file runs, as a reader would run it, against a real sandbox tenant (and a real
// redis-server for the inbox): scripts exit 0, servers answer a signed delivery, handlers return
// the documented status, and the API reference's samples print bodies the spec accepts.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, freePort, type RedisServer } from '@forms-api/redis-server';
import { startSandbox, type SandboxHandle } from '@forms-api/sandbox';
import { createSpecValidator, formatErrors } from '@forms-api/spec/validator';
import { OPERATIONS, type OperationId } from '@forms-api/types';
import { runInboxCli } from '@forms-api/webhook-inbox/cli';
import { listen, until } from '@forms-api/test-support';
import { sampleFiles } from '../src/check-samples.js';
import { signedDelivery } from './support/delivery.js';
import { listening, runToEnd, runTsx, SAMPLES, start } from './support/sample-runner.js';

const SECRET = 'whsec_doc_samples_0123456789';
const DRIVER = fileURLToPath(new URL('./support/drive-module.ts', import.meta.url));
/** The inbox's command, as `npx forms-webhook-inbox` runs it. */
const INBOX_CLI = fileURLToPath(
  new URL('../node_modules/@forms-api/webhook-inbox/bin/forms-webhook-inbox.js', import.meta.url),
);
const openapi = (await import('@forms-api/spec/openapi.json', { with: { type: 'json' } })).default;
const spec = createSpecValidator(openapi);

/** A request a receiver sample must refuse with a 4xx of its own (never a 500 and a stack trace). */
type Refusal = { what: string; contentType: string | undefined; signed: boolean; status: number };
const NOT_JSON_OR_UNSIGNED: Refusal[] = [
  { what: 'text/plain', contentType: 'text/plain', signed: true, status: 415 },
  { what: 'no Content-Type', contentType: undefined, signed: true, status: 415 },
  { what: 'no signature', contentType: 'application/json', signed: false, status: 401 },
];

/** How each sample is run. A sample file without an entry fails the suite. */
type Run =
  | { kind: 'script' }
  | { kind: 'server'; path: string; status: number; refuses?: Refusal[] }
  | { kind: 'handler'; export: string; status: number }
  | { kind: 'replay-guard'; export: string }
  | { kind: 'worker'; receiver: string }
  | { kind: 'metrics'; path: string }
  | { kind: 'reconciler'; form: number }
  | { kind: 'lost-webhook'; form: number }
  | { kind: 'operation'; operationId: OperationId };

const RUNS: Record<string, Run> = {
  'client/quick-start.ts': { kind: 'script' },
  'client/pages.ts': { kind: 'script' },
  'client/options.ts': { kind: 'script' },
  'client/pacing.ts': { kind: 'script' },
  'client/redactor.ts': { kind: 'script' },
  'client/raw-surface.ts': { kind: 'script' },
  'client/download-file.ts': { kind: 'script' },
  'client/catch-up.ts': { kind: 'script' },
  'client/every-operation.ts': { kind: 'script' },
  'client/form-update-keeping.ts': { kind: 'script' },
  'client/export-csv.ts': { kind: 'script' },
  'client/export-submissions.ts': { kind: 'script' },
  'types/types.ts': { kind: 'script' },
  'types/answers-from-webhook.ts': { kind: 'script' },
  'sandbox/start-sandbox.ts': { kind: 'script' },
  'sandbox/with-the-client.ts': { kind: 'script' },
  'sandbox/fault-catalogue.ts': { kind: 'script' },
  // A node:test file: run as a script, its tests run and a failing one exits 1.
  'sandbox/test-setup.ts': { kind: 'script' },
  'webhook-verify/express.ts': { kind: 'server', path: '/webhooks/forms', status: 204 },
  // Issue 22 bug 5: the guide's hand-written express.raw() receiver answered 500 with an HTML stack trace.
  'webhook-verify/express-raw.ts': { kind: 'server', path: '/hook', status: 204, refuses: NOT_JSON_OR_UNSIGNED },
  'webhook-verify/hono.ts': { kind: 'handler', export: 'default.fetch', status: 204 },
  'webhook-verify/fastify.ts': { kind: 'server', path: '/webhooks/forms', status: 204 },
  'webhook-verify/node-listener.ts': { kind: 'server', path: '/webhooks/forms', status: 204 },
  'webhook-verify/request-pipeline.ts': { kind: 'server', path: '/webhooks/forms', status: 202 },
  'webhook-verify/route-handler.ts': { kind: 'handler', export: 'POST', status: 204 },
  'webhook-verify/workers.ts': { kind: 'handler', export: 'default.fetch', status: 204 },
  'webhook-inbox/express-receiver.ts': { kind: 'server', path: '/webhooks/forms', status: 202 },
  'webhook-inbox/hono-receiver.ts': { kind: 'server', path: '/webhooks/forms', status: 202 },
  'webhook-inbox/next-route.ts': { kind: 'handler', export: 'POST', status: 202 },
  'webhook-inbox/replay-store.ts': { kind: 'replay-guard', export: 'receive' },
  'webhook-inbox/worker.ts': { kind: 'worker', receiver: 'webhook-inbox/express-receiver.ts' },
  // A worker serving Prometheus on METRICS_PORT: scraped once it listens.
  'webhook-inbox/worker-metrics.ts': { kind: 'metrics', path: '/metrics' },
  // A worker and a reconciler: running once its first walk of the form has ended (stats shows a watermark).
  'webhook-inbox/reconciler.ts': { kind: 'reconciler', form: 11 },
  'webhook-inbox/file-copy.ts': { kind: 'script' },
  // Receiver, worker and reconciler in one process: a submission whose webhook was lost is run
  // by the reconciler, one whose webhook arrived by the webhook, each once.
  'webhook-inbox/never-lose-a-submission.ts': { kind: 'lost-webhook', form: 11 },
};
for (const operationId of Object.keys(OPERATIONS) as OperationId[]) {
  RUNS[`operations/${operationId}.ts`] = { kind: 'operation', operationId };
  RUNS[`operations/${operationId}.sh`] = { kind: 'operation', operationId };
}
// A further client sample of an operation (`operations/<operationId>.<variant>.ts`, shown in its description on the site): a script.
for (const file of sampleFiles().filter((f) => /^operations\/\w+\.[a-z]+(?:-[a-z]+)*\.ts$/.test(f)))
  RUNS[file] = { kind: 'script' };

let sandbox: SandboxHandle;
let redis: RedisServer;
let receiver: Server;
let env: Record<string, string>;
const scratch = mkdtempSync(join(tmpdir(), 'doc-samples-'));

beforeAll(async () => {
  [sandbox, redis] = await Promise.all([
    startSandbox({ port: 0, allowPrivateWebhooks: true, rateLimit: false }),
    startRedisServer(),
  ]);
  receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  const { url: receiverBase } = await listen(receiver);
  env = {
    FORMS_API_BASE_URL: sandbox.baseUrl,
    FORMS_API_TOKEN: sandbox.tokens.all,
    FORMS_WEBHOOK_SECRET: SECRET,
    REDIS_URL: redis.url,
    RECEIVER_URL: `${receiverBase}/webhooks/forms`,
    ...(await tenantFacts()),
  };
});

afterAll(async () => {
  await Promise.allSettled([sandbox?.close(), redis?.close(), new Promise((r) => receiver?.close(r))]);
  rmSync(scratch, { recursive: true, force: true });
});

/** Calls the sandbox (or `tenant`) as the seed's `all` token; fails on an error status. */
async function api(method: string, path: string, body?: unknown, tenant: SandboxHandle = sandbox): Promise<any> {
  const response = await fetch(`${tenant.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${tenant.tokens.all}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Ids a sample of the API reference needs: a submission, its fields, a signed file URL. */
async function tenantFacts(): Promise<Record<string, string>> {
  const form = await api('GET', '/open/forms/11');
  const field = (name: string): string => form.properties.find((f: { name: string }) => f.name === name).id;
  const page = await api('GET', '/open/forms/11/submissions?per_page=100&status=completed');
  const fileUrl = page.data
    .flatMap((s: { data: Record<string, unknown> }) => Object.values(s.data))
    .flatMap((v: unknown) => (Array.isArray(v) ? v : []))
    .find((v: { file_url?: string }) => typeof v?.file_url === 'string')?.file_url;
  if (!fileUrl) throw new Error('the sandbox seed has no file answer on form 11');
  return {
    FORMS_SUBMISSION_ID: String(page.data[0].id),
    NAME_FIELD_ID: field('Name'),
    EMAIL_FIELD_ID: field('Email'),
    FORMS_FILE_URL: fileUrl,
  };
}

/** A fresh webhook integration for a sample that updates, reads or deletes one. */
async function freshIntegration(): Promise<string> {
  const body = await api('POST', '/open/forms/11/integrations', {
    integration_id: 'webhook',
    status: 'active',
    data: { webhook_url: env.RECEIVER_URL, webhook_secret: SECRET },
  });
  if (!body.form_integration?.id) throw new Error('could not create an integration');
  return String(body.form_integration.id);
}

let invitations = 0;
/**
 * What a sample that changes or removes something acts on, made fresh so the seed the other
 * samples read stays whole (the curl lines take it from the environment; the client samples
 * make their own the way a reader would try them).
 */
const FRESH: Partial<Record<OperationId, () => Promise<Record<string, string>>>> = {
  updateFormIntegration: async () => ({ FORMS_INTEGRATION_ID: await freshIntegration() }),
  deleteFormIntegration: async () => ({ FORMS_INTEGRATION_ID: await freshIntegration() }),
  listIntegrationEvents: async () => ({ FORMS_INTEGRATION_ID: await freshIntegration() }),
  updateForm: async () => ({ FORMS_FORM_ID: await freshForm() }),
  deleteForm: async () => ({ FORMS_FORM_ID: await freshForm() }),
  deleteFormSubmission: async () => ({ FORMS_SUBMISSION_ID: await freshSubmission() }),
  deleteWorkspace: async () => ({ FORMS_WORKSPACE_ID: await freshWorkspace() }),
  leaveWorkspace: async () => ({ FORMS_WORKSPACE_ID: await freshWorkspace() }),
  removeWorkspaceUser: async () => ({ FORMS_USER_ID: await addedMember('bob@example.com') }),
  resendWorkspaceInvite: async () => ({ FORMS_INVITE_ID: await freshInvite() }),
  cancelWorkspaceInvite: async () => ({ FORMS_INVITE_ID: await freshInvite() }),
};

async function freshForm(): Promise<string> {
  // The spec's own example of a whole form, in the seed's workspace 1.
  const example = (openapi.paths as any)[OPERATIONS.createForm.path].post.requestBody.content['application/json']
    .example;
  return String((await api('POST', OPERATIONS.createForm.path, example)).form.id);
}

/** A completed submission of form 11 answered now, so the newest one. */
async function freshSubmission(tenant: SandboxHandle = sandbox): Promise<string> {
  const answers = { [env.NAME_FIELD_ID!]: 'To delete', [env.EMAIL_FIELD_ID!]: 'x@example.com' };
  await api('POST', '/forms/11/answer', answers, tenant);
  return String(
    (await api('GET', '/open/forms/11/submissions?per_page=1&status=completed', undefined, tenant)).data[0].id,
  );
}

async function freshWorkspace(): Promise<string> {
  return String((await api('POST', '/open/workspaces/create', { name: 'Scratch' })).workspace_id);
}

async function addedMember(email: string): Promise<string> {
  await api('POST', '/open/workspaces/1/users/add', { email, role: 'user' });
  const members: Array<{ id: number; email: string }> = await api('GET', '/open/workspaces/1/users');
  return String(members.find((member) => member.email === email)!.id);
}

async function freshInvite(): Promise<string> {
  const body = await api('POST', '/open/workspaces/1/users/add', {
    email: `invitee-${++invitations}@example.com`,
    role: 'user',
  });
  return String(body.invite.id);
}

async function deliver(port: number, path: string): Promise<number> {
  const { body, headers } = await signedDelivery(SECRET);
  return (await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers, body })).status;
}

/** The signed delivery with another Content-Type (or none), or without its signature. */
async function deliverAs(port: number, path: string, refusal: Refusal): Promise<number> {
  const { body, headers } = await signedDelivery(SECRET);
  const sent = new Headers(headers);
  sent.delete('content-type');
  if (refusal.contentType) sent.set('content-type', refusal.contentType);
  if (!refusal.signed) sent.delete('x-webhook-signature');
  // A body without a declared type: fetch would label a string text/plain, so send bytes.
  return (
    await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: sent,
      body: new TextEncoder().encode(body),
    })
  ).status;
}

function expectClean(file: string, result: { code: number | null; stdout: string; stderr: string }) {
  expect(result.code, `${file} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
}

describe('the samples', () => {
  it('each have a way to run (and every operation has a TypeScript and a curl sample)', () => {
    expect(sampleFiles().filter((file) => !file.startsWith('support/') && !RUNS[file])).toEqual([]);
    expect(Object.keys(RUNS).filter((file) => !sampleFiles().includes(file))).toEqual([]);
  });

  for (const [file, run] of Object.entries(RUNS)) {
    it(`${file} runs`, async () => {
      switch (run.kind) {
        case 'script':
          return expectClean(file, await runToEnd(file, env, { cwd: scratch }));
        case 'operation': {
          const runEnv = { ...env, ...(await FRESH[run.operationId]?.()) };
          const result = await runToEnd(file, runEnv, { cwd: scratch });
          expectClean(file, result);
          if (run.operationId === 'downloadSubmissionFile') return;
          if (run.operationId === 'exportFormSubmissions') {
            // The CSV: a header row of the columns asked for (Name, Email, created_at), then rows.
            const verdict = spec.validateResponse(run.operationId, 200, result.stdout, 'text/csv');
            expect(formatErrors(verdict.errors), `${file} printed a body the spec does not document`).toEqual([]);
            const [header, ...rows] = result.stdout.trim().split(/\r?\n/);
            expect(header).toMatch(/^"?Name"?,"?Email"?,/);
            expect(rows.length).toBeGreaterThan(0);
            return;
          }
          // The printed body is what the service answered: it must be what the spec documents.
          const verdict = spec.validateResponse(run.operationId, 200, JSON.parse(result.stdout));
          expect(formatErrors(verdict.errors), `${file} printed a body the spec does not document`).toEqual([]);
          return;
        }
        case 'server': {
          const port = await freePort();
          const server = start(file, { ...env, PORT: String(port) });
          try {
            await listening(port);
            expect(await deliver(port, run.path)).toBe(run.status);
            for (const refusal of run.refuses ?? []) {
              expect({ request: refusal.what, status: await deliverAs(port, run.path, refusal) }).toEqual({
                request: refusal.what,
                status: refusal.status,
              });
            }
          } finally {
            await server.stop();
          }
          return;
        }
        case 'handler': {
          const driven = await runDriver(file, run.export, 'request');
          expect(driven).toEqual({ status: run.status });
          return;
        }
        case 'replay-guard':
          expect(await runDriver(file, run.export, 'replay')).toEqual({ first: 'accepted', second: 'replayed' });
          return;
        case 'metrics': {
          const port = await freePort();
          const working = start(file, { ...env, METRICS_PORT: String(port) });
          try {
            await listening(port);
            const response = await fetch(`http://127.0.0.1:${port}${run.path}`);
            expect(response.status).toBe(200);
            expect(await response.text()).toMatch(/^forms_inbox_queue_jobs\{/m);
          } finally {
            await working.stop();
          }
          return;
        }
        case 'reconciler': {
          const working = start(file, env);
          try {
            const walked = async () => {
              let out = '';
              await runInboxCli(['stats', '--json', '--redis', redis.url], {
                out: (line) => (out += line),
                err: () => {},
              });
              const states = (JSON.parse(out || '{}').reconcile ?? []) as Array<{
                form: number;
                watermark: string | null;
              }>;
              return states.some((state) => state.form === run.form && state.watermark !== null);
            };
            await until(`${file}: a walk of form ${run.form} ended`, walked, { everyMs: 100 });
          } finally {
            await working.stop();
          }
          return;
        }
        case 'lost-webhook':
          return lostWebhookRecovered(file, run.form);
        case 'worker': {
          const port = await freePort();
          const receiving = start(run.receiver, { ...env, PORT: String(port) });
          const working = start(file, env);
          try {
            await listening(port);
            expect(await deliver(port, '/webhooks/forms')).toBe(202);
            await working.waitFor(/submission \d+ of form 11 \(wh-[0-9a-f]+, attempt 1\)/);
          } finally {
            await Promise.all([receiving.stop(), working.stop()]);
          }
          return;
        }
      }
    });
  }
});

/**
 * The whole story against a tenant of its own: submission `lost` is answered while no receiver
 * listens (its one delivery is refused, as the service records it), then the sample starts and
 * submission `delivered` is answered with the receiver up. The reconciler must run `lost`, the
 * webhook `delivered`, each once, and a walk afterwards must find nothing left to queue. The
 * tenant's clock runs five minutes behind, so its submissions are past the reconciler's one-minute
 * grace at once, as they would be a minute later; a Redis database of its own keeps the claims
 * of the other inbox samples out.
 */
async function lostWebhookRecovered(file: string, form: number): Promise<void> {
  const tenant = await startSandbox({
    port: 0,
    allowPrivateWebhooks: true,
    rateLimit: false,
    now: () => Date.now() - 5 * 60_000,
  });
  const port = await freePort();
  const runEnv = {
    ...env,
    FORMS_API_BASE_URL: tenant.baseUrl,
    FORMS_API_TOKEN: tenant.tokens.all,
    REDIS_URL: `${redis.url}/3`,
    PORT: String(port),
  };
  let running: ReturnType<typeof start> | undefined;
  try {
    const created = await api(
      'POST',
      `/open/forms/${form}/integrations`,
      {
        integration_id: 'webhook',
        status: 'active',
        data: { webhook_url: `http://127.0.0.1:${port}/webhooks/forms`, webhook_secret: SECRET },
      },
      tenant,
    );
    const integration = created.form_integration.id;
    const lost = await freshSubmission(tenant);
    const events = await api('GET', `/open/forms/${form}/integrations/${integration}/events`, undefined, tenant);
    // One event, a failure (the contract's `failed`, the service's `Error`): nothing will send it again.
    expect(events).toHaveLength(1);
    expect(events[0].status).not.toMatch(/success/i);

    running = start(file, runEnv);
    await listening(port);
    await running.waitFor(new RegExp(`^reconcile ${form}:${lost} \\(first: true\\)`, 'm'));
    const delivered = await freshSubmission(tenant);
    await running.waitFor(new RegExp(`^webhook ${form}:${delivered} \\(first: true\\)`, 'm'));

    // A walk now, as an operator would check (`reconcile --dry-run`): both are claimed, nothing is left to queue.
    const walk = await runTsx([INBOX_CLI, 'reconcile', '--form', String(form), '--dry-run', '--json'], runEnv, {
      cwd: scratch,
    });
    expectClean('forms-webhook-inbox reconcile', walk);
    const report = JSON.parse(walk.stdout) as { examined: number; recovered: unknown[] };
    expect(report.examined).toBeGreaterThanOrEqual(2);
    expect(report.recovered).toEqual([]);

    // The handler saw each of the two once.
    const seen = running
      .output()
      .stdout.split('\n')
      .filter((line) => new RegExp(` ${form}:(${lost}|${delivered}) `).test(line));
    expect(seen.map((line) => line.replace(/: \d+ rows$/, ''))).toEqual([
      `reconcile ${form}:${lost} (first: true)`,
      `webhook ${form}:${delivered} (first: true)`,
    ]);
  } finally {
    await running?.stop();
    await tenant.close();
  }
}

/** Calls a sample module's export in a process of its own (see support/drive-module.ts). */
async function runDriver(file: string, exportPath: string, mode: 'request' | 'replay'): Promise<unknown> {
  const result = await runTsx([DRIVER, join(SAMPLES, file), exportPath, mode], env, { cwd: scratch });
  expectClean(file, result);
  return JSON.parse(result.stdout.trim().split('\n').pop()!);
}
