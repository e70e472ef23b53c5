// Every shell command the READMEs and guides print is run exactly as printed, in a reader's shell
// (pnpm installed the way the README says, none of this run's PATH or variables) and in a
// checkout of the reader's (a copy of this tree, built from this run's turbo cache): commands
// that finish must exit 0; servers, prompts and long runs must show they are up within a bound,
// and are then stopped. A printed command this table does not know fails the test, so a new or
// changed command is always run.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRegistry, type LocalRegistry } from '@forms-api/local-registry';
import { freePort, startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { startSandbox, type SandboxHandle } from '@forms-api/sandbox';
import { listen } from '@forms-api/test-support';
import { documentedCommands } from '../src/commands.js';
import { REPO_ROOT, SAMPLES_DIR } from '../src/documents.js';
import { readerShell, type ReaderShell } from './support/reader-shell.js';
import { runShell, type ShellResult } from './support/shell.js';
import { workflowJob } from './support/workflow-steps.js';

/**
 * Where a command runs: the checkout's root, a folder of it, a scratch folder, or a reader's own
 * project with these published packages installed from the local registry (their bins on PATH).
 */
type Place = 'root' | 'doc-check' | 'scratch' | { project: readonly string[] };

type Run =
  /** It finishes: exit 0 within the bound. */
  | {
      kind: 'finishes';
      place: Place;
      timeoutMs?: number;
      env?: (c: Context) => Record<string, string>;
      before?: (c: Context) => Promise<() => Promise<void>>;
      /**
       * It shares nothing with the other commands (a reader's project of its own, servers of its
       * own, not the test's tenant): it starts once the checkout is ready and runs beside them;
       * its test awaits it and judges it like any other.
       */
      alongside?: true;
    }
  /** It keeps running (a server, a prompt, a long job): it must print `ready` within the bound. */
  | {
      kind: 'starts';
      place: Place;
      ready: RegExp;
      timeoutMs?: number;
      env?: (c: Context) => Record<string, string>;
      whileReady?: (output: string) => Promise<void>;
      append?: (c: Context) => string;
    }
  /** Each line is its own command (a list of alternatives), run with `run`. */
  | { kind: 'lines'; lines: Record<string, Run> }
  /** Run by `.ci/run` itself, exactly as printed (`runs` is what .ci/run must hold). */
  | { kind: 'ci'; runs?: string }
  /**
   * `pnpm --filter <package> <script>`, a script this very run runs on this tree's files: a task of
   * the root `test` script (.ci/run runs it), or a command of the package's own `test` script; or
   * `pnpm <script>`, a root script that is `turbo run` of tasks the root `test` script runs. Run
   * again in the copy, it would repeat what this run already shows, on the same files.
   */
  | { kind: 'task' }
  /** The README's own pnpm install line: run first, it puts pnpm on the PATH of every other command. */
  | { kind: 'installs-pnpm' }
  /** The printed line that installs and builds a checkout: run next, it sets up the reader's checkout. */
  | { kind: 'sets-up-checkout' }
  /** A reader's install line for a published package: run in a project of the reader's, against a local registry holding the packed packages. */
  | { kind: 'consumer-install'; packageName: string };

interface Context {
  checkout: ReaderShell;
  sandbox: SandboxHandle;
  /** A submission of the tenant's first form (the live target reads it). */
  submissionId: number;
  redis: RedisServer;
  receiverUrl: string;
  scratch: string;
}

const live = (c: Context) => ({
  FORMS_API_BASE_URL: c.sandbox.baseUrl,
  FORMS_API_TOKEN: c.sandbox.tokens.all,
  FORMS_API_WORKSPACE_ID: String(c.sandbox.workspaces[0]!.id),
  FORMS_API_FORM_ID: String(c.sandbox.workspaces[0]!.forms[0]!.id),
});
// The sandbox as a reader's tenant, with every setting the published suite's documents tell them to set.
const tenant = (c: Context) => ({ ...live(c), FORMS_API_SUBMISSION_ID: String(c.submissionId) });
/** How .ci/run runs `pnpm contract` (the main job) and `pnpm test` (every test, this one included). */
const MAIN_JOB = 'npx --yes pnpm@10.34.8 contract';
const EVERY_TEST = 'npx --yes pnpm@10.34.8 test';
/** The bound of each printed command's test. */
const COMMAND_TEST_TIMEOUT_MS = 600_000;
const SANDBOX_JSON = /"baseUrl":"http:\/\/127\.0\.0\.1:\d+"/;
// The suite ran a check of its first target: a first check result of any target (`--target live` runs the tenant alone).
const CONTRACT_STARTED = /[✓✗~i-] \[(?:prism|sandbox|live)\b/;
const fetchOk = async (output: string) => {
  const url = /http:\/\/127\.0\.0\.1:\d+\/?/.exec(output)![0];
  expect((await fetch(url)).status).toBe(200);
};

const SECRET = 'whsec_readme_commands_0123456789';
/**
 * How the reader's checkout is installed and built: the contract suite's README prints it. Run
 * once as the set-up, it is not run again as a command (a second install and build repeats it).
 */
const CHECKOUT_SET_UP = 'pnpm install && pnpm build';

/** How each printed command is run, keyed by document and the command exactly as printed. */
const RUNS: Record<string, Record<string, Run>> = {
  'README.md': {
    'npx --yes pnpm@10.34.8 install --frozen-lockfile && npx --yes pnpm@10.34.8 contract': { kind: 'ci' },
    'npx --yes pnpm@10.34.8 install --frozen-lockfile && npx --yes pnpm@10.34.8 test': { kind: 'ci' },
    'npm install --global pnpm@10.34.8': { kind: 'installs-pnpm' },
    // `turbo run lint lint:format lint:eslint`: tasks of this very run, so the commands need not wait for them.
    'pnpm lint': { kind: 'task' },
    // `prettier --write .`: it must start writing, each file it passes printed with "(unchanged)" in
    // a tree `pnpm lint` passes (its name grey where colours are on, as with CI set). The whole tree
    // goes through the same Prettier, configuration and ignore file in this very run (lint:format,
    // `prettier --check .`): a whole pass here would repeat it.
    'pnpm format': {
      kind: 'starts',
      place: 'root',
      ready: /\.[cm]?[jt]sx?(?:\x1b\[\d+m)? \d+ms \(unchanged\)$/m,
      timeoutMs: 120_000,
    },
    'pnpm bundle': { kind: 'finishes', place: 'root', timeoutMs: 120_000 },
    'pnpm build': { kind: 'finishes', place: 'root', timeoutMs: 240_000 },
    // This very run is `pnpm test` (.ci/run runs it, as the pinned pnpm).
    'pnpm test': { kind: 'ci', runs: EVERY_TEST },
    // The main job: .ci/run runs it to its end on a fresh clone, as the pinned pnpm, before `pnpm test`.
    'pnpm contract': { kind: 'ci', runs: MAIN_JOB },
    'pnpm sandbox': { kind: 'starts', place: 'root', ready: SANDBOX_JSON, timeoutMs: 120_000 },
    'pnpm bench': { kind: 'starts', place: 'root', ready: /:bench: /, timeoutMs: 240_000 },
    'pnpm docs:build': { kind: 'finishes', place: 'root', timeoutMs: 180_000 },
    'pnpm docs:serve': { kind: 'starts', place: 'root', ready: /http:\/\/127\.0\.0\.1:\d+/, whileReady: fetchOk },
    'pnpm samples:sync': { kind: 'finishes', place: 'root' },
    'pnpm changeset': { kind: 'starts', place: 'root', ready: /Which packages would you like to include/ },
    // It versions and packs a throwaway copy of the checkout: nothing another command reads or writes.
    // Started with the readers' lane, it shares two cores with the file's set-up and the rest of the
    // lane: about 40 s alone, over 180 s in a loaded CI run. Its bound is its test's, for a hang.
    'pnpm release:dry': { kind: 'finishes', place: 'root', timeoutMs: COMMAND_TEST_TIMEOUT_MS, alongside: true },
  },
  'apps/doc-check/README.md': {
    'pnpm samples:sync': { kind: 'finishes', place: 'root' },
  },
  'apps/docs/guides/03-contract-suite.md': {
    'pnpm contract': { kind: 'ci', runs: MAIN_JOB },
    'pnpm contract --target live': {
      kind: 'starts',
      place: 'root',
      ready: CONTRACT_STARTED,
      timeoutMs: 180_000,
      env: live,
    },
    // The published package, from a reader's project, must take its own targets (Prism and both
    // sandboxes) and start checking. The same suite runs to its end on the same targets in the
    // main job (`pnpm contract`), and the published package runs to its end against a tenant in
    // the CI recipe (below): a whole run here would repeat both.
    'npx --yes @forms-api/contract-tests --report-dir contract-reports': {
      kind: 'starts',
      place: { project: [] },
      ready: CONTRACT_STARTED,
      timeoutMs: 300_000,
    },
    // The CI recipe (below) runs this very command to its end, pinned and with --strict: here
    // the unpinned package must install, take the tenant and start checking it.
    'npx --yes @forms-api/contract-tests --target live --report-dir contract-reports': {
      kind: 'starts',
      place: { project: [] },
      ready: CONTRACT_STARTED,
      timeoutMs: 300_000,
      env: tenant,
    },
    // The same run with one more flag: it must take the flag and start checking; what each flag
    // does over a whole run is the suite's own tests' (pacing, seeds, the explorer's bounds).
    'npx --yes @forms-api/contract-tests --target live --rate-limit 50 --report-dir contract-reports': {
      kind: 'starts',
      place: { project: [] },
      ready: CONTRACT_STARTED,
      timeoutMs: 300_000,
      env: tenant,
    },
    'npx --yes @forms-api/contract-tests --target live --seed 18 --report-dir contract-reports': {
      kind: 'starts',
      place: { project: [] },
      ready: CONTRACT_STARTED,
      timeoutMs: 300_000,
      env: tenant,
    },
    'npx --yes @forms-api/contract-tests --target live --seed 18 --explore-budget 60 --explore-time 60 --report-dir contract-reports':
      { kind: 'starts', place: { project: [] }, ready: CONTRACT_STARTED, timeoutMs: 300_000, env: tenant },
  },
  'apps/docs/guides/04-sandbox.md': {
    'pnpm --silent sandbox --port 0': { kind: 'starts', place: 'root', ready: SANDBOX_JSON, timeoutMs: 120_000 },
    'pnpm --silent sandbox --port 0 --behaviour observed': {
      kind: 'starts',
      place: 'root',
      ready: SANDBOX_JSON,
      timeoutMs: 120_000,
    },
    // A reader's project; the test's receiver stands for the reader's (it answers 2xx: exit 0).
    'npx --yes @forms-api/sandbox trigger --to "$RECEIVER_URL"   # e.g. http://127.0.0.1:3000/webhooks': {
      kind: 'finishes',
      place: { project: [] },
      timeoutMs: 180_000,
      env: (c) => ({ RECEIVER_URL: c.receiverUrl }),
    },
  },
  'apps/sandbox/README.md': {
    // npx fetches the package from the local registry into a project of the reader's.
    'npx --yes @forms-api/sandbox --port 0': {
      kind: 'starts',
      place: { project: [] },
      ready: SANDBOX_JSON,
      timeoutMs: 180_000,
    },
    'npm install --save-dev @forms-api/sandbox': { kind: 'consumer-install', packageName: '@forms-api/sandbox' },
    'pnpm --silent sandbox --port 0 --allow-private-webhooks\n# stdout, one line: {"baseUrl":"http://127.0.0.1:40123","adminToken":"sandbox_admin_…","tokens":{"all":"101|…",…},"workspaces":[…]}\n# stderr: request and dispatch logs (never tokens)':
      { kind: 'starts', place: 'root', ready: SANDBOX_JSON, timeoutMs: 120_000 },
  },
  'apps/contract-tests/README.md': {
    'pnpm --filter @forms-api/contract-tests fault-seeds --deep                # the deep faults, seeds 1 to 10\npnpm --filter @forms-api/contract-tests fault-seeds --seeds 2 --fault unsorted --behaviour observed':
      {
        kind: 'lines',
        lines: {
          // The sweep takes minutes: up once its first verdict is printed.
          'pnpm --filter @forms-api/contract-tests fault-seeds --deep                # the deep faults, seeds 1 to 10':
            {
              kind: 'starts',
              place: 'root',
              ready: /^seed 1 contract [\w-]+ ✓ explore: /m,
              timeoutMs: 180_000,
            },
          'pnpm --filter @forms-api/contract-tests fault-seeds --seeds 2 --fault unsorted --behaviour observed': {
            kind: 'finishes',
            place: 'root',
            timeoutMs: 180_000,
          },
        },
      },
    // It must take the flags and start checking: the whole suite runs on this sandbox in the main
    // job, and what the seed and the budget do is the explorer's own tests'.
    'pnpm --filter @forms-api/contract-tests contract --target sandbox --seed 18 --explore-budget 60': {
      kind: 'starts',
      place: 'root',
      ready: CONTRACT_STARTED,
      timeoutMs: 180_000,
    },
    // Run to its end by the CI recipe (below), pinned and with --strict: here it must start checking.
    'npx --yes @forms-api/contract-tests --target live --report-dir contract-reports': {
      kind: 'starts',
      place: { project: [] },
      ready: CONTRACT_STARTED,
      timeoutMs: 300_000,
      env: tenant,
    },
    "pnpm contract                       # from the root: builds what it needs, then prism + both sandboxes\npnpm contract --target live         # from the root: your tenant alone\npnpm install && pnpm build          # or, once, then run the app's script directly:\npnpm --filter @forms-api/contract-tests contract                   # prism + both sandboxes\npnpm --filter @forms-api/contract-tests contract --target prism    # only the mock\npnpm --filter @forms-api/contract-tests contract --target live     # your tenant alone\npnpm --filter @forms-api/contract-tests contract --target prism,sandbox,live   # the mock, the contract's sandbox, then the tenant\nFORMS_CONTRACT_TARGETS=live pnpm --filter @forms-api/contract-tests contract  # the same list as --target live":
      {
        kind: 'lines',
        lines: {
          'pnpm contract                       # from the root: builds what it needs, then prism + both sandboxes': {
            kind: 'ci',
            runs: MAIN_JOB,
          },
          'pnpm contract --target live         # from the root: your tenant alone': {
            kind: 'starts',
            place: 'root',
            ready: CONTRACT_STARTED,
            timeoutMs: 180_000,
            env: live,
          },
          "pnpm install && pnpm build          # or, once, then run the app's script directly:": {
            kind: 'sets-up-checkout',
          },
          'pnpm --filter @forms-api/contract-tests contract                   # prism + both sandboxes': {
            kind: 'starts',
            place: 'root',
            ready: CONTRACT_STARTED,
            timeoutMs: 120_000,
          },
          'pnpm --filter @forms-api/contract-tests contract --target prism    # only the mock': {
            kind: 'starts',
            place: 'root',
            ready: CONTRACT_STARTED,
            timeoutMs: 120_000,
          },
          'pnpm --filter @forms-api/contract-tests contract --target live     # your tenant alone': {
            kind: 'starts',
            place: 'root',
            ready: CONTRACT_STARTED,
            timeoutMs: 120_000,
            env: live,
          },
          "pnpm --filter @forms-api/contract-tests contract --target prism,sandbox,live   # the mock, the contract's sandbox, then the tenant":
            {
              kind: 'starts',
              place: 'root',
              ready: CONTRACT_STARTED,
              timeoutMs: 120_000,
              env: live,
            },
          'FORMS_CONTRACT_TARGETS=live pnpm --filter @forms-api/contract-tests contract  # the same list as --target live':
            {
              kind: 'starts',
              place: 'root',
              ready: CONTRACT_STARTED,
              timeoutMs: 120_000,
              env: live,
            },
        },
      },
  },
  'packages/client/README.md': {
    'pnpm add @forms-api/client': { kind: 'consumer-install', packageName: '@forms-api/client' },
    // A reader's project, the package from the local registry, the tenant's token and address set.
    'npx --yes -p @forms-api/client forms-export --form 11 --format csv --out submissions.csv': {
      kind: 'finishes',
      place: { project: [] },
      timeoutMs: 180_000,
      env: tenant,
    },
    "pnpm --filter @forms-api/client build          # tsup: ESM + CJS + .d.ts\npnpm --filter @forms-api/client lint           # tsc --noEmit -p . (src, without Node's types)\npnpm --filter @forms-api/client test           # test:types, vitest, size, test:runtimes\npnpm --filter @forms-api/client test:types     # the type-level tests alone\npnpm --filter @forms-api/client test:runtimes  # vitest on the Nodes not running it, dist on Bun, Deno\npnpm --filter @forms-api/client size           # the size check alone\npnpm --filter @forms-api/client bench          # the benchmark above: Node 24, 22 and 20\npnpm --filter @forms-api/client bench:profile  # CPU per request by where it is spent":
      {
        kind: 'lines',
        lines: {
          // The client's build, lint and test are tasks of this very run (`pnpm test` runs every
          // package's); test:types, test:runtimes and size are commands of its `test` script.
          'pnpm --filter @forms-api/client build          # tsup: ESM + CJS + .d.ts': { kind: 'task' },
          "pnpm --filter @forms-api/client lint           # tsc --noEmit -p . (src, without Node's types)": {
            kind: 'task',
          },
          'pnpm --filter @forms-api/client test           # test:types, vitest, size, test:runtimes': { kind: 'task' },
          'pnpm --filter @forms-api/client test:types     # the type-level tests alone': { kind: 'task' },
          'pnpm --filter @forms-api/client test:runtimes  # vitest on the Nodes not running it, dist on Bun, Deno': {
            kind: 'task',
          },
          'pnpm --filter @forms-api/client size           # the size check alone': { kind: 'task' },
          // Up once Node 24's figures are printed; the other runtimes would only repeat it. Three
          // rounds instead of 30 (ROUNDS, in the README): every line of the benchmark runs, and
          // its figures are for `pnpm bench` to report, not for this test.
          'pnpm --filter @forms-api/client bench          # the benchmark above: Node 24, 22 and 20': {
            kind: 'starts',
            place: 'root',
            ready: /client\.forms\.get vs openapi-fetch alone: [\d.]+×/,
            timeoutMs: 240_000,
            env: () => ({ ROUNDS: '3' }),
          },
          // To its end (its three profiles and their table) at 1,000 requests each instead of
          // 20,000 (REQUESTS, in the README).
          'pnpm --filter @forms-api/client bench:profile  # CPU per request by where it is spent': {
            kind: 'finishes',
            place: 'root',
            timeoutMs: 300_000,
            env: () => ({ REQUESTS: '1000' }),
          },
        },
      },
  },
  'packages/webhook-verify/README.md': {
    'npm install @forms-api/webhook-verify': { kind: 'consumer-install', packageName: '@forms-api/webhook-verify' },
  },
  'packages/webhook-inbox/README.md': {
    'npm install @forms-api/webhook-inbox': { kind: 'consumer-install', packageName: '@forms-api/webhook-inbox' },
  },
};

/** Commands whose text depends on a document's exact wording, matched by the document. */
function runFor(document: string, text: string): Run | undefined {
  const known = RUNS[document]?.[text];
  if (known) return known;
  // The inbox's topology trials start daemonized redis-servers on fixed ports: each block must
  // finish, and whatever it started is shut down after it, whatever happened.
  if (
    document === 'packages/webhook-inbox/README.md' &&
    /^(mkdir -p inbox-(sentinel|cluster)|for port in 7000 )/.test(text)
  )
    return { kind: 'finishes', place: 'scratch', timeoutMs: 60_000, before: async () => shutDownInboxTrials };
  // The inbox's operations block (README and guide): a reader's project with the package installed,
  // REDIS_URL set, one failed delivery in the dead-letter set (so show and retry have a job), and a
  // healthy worker running, as in production (so the retried job is processed and drain ends).
  if (
    /^npx forms-webhook-inbox stats/.test(text) &&
    ['packages/webhook-inbox/README.md', 'apps/docs/guides/05-never-lose-a-submission.md'].includes(document)
  )
    return {
      kind: 'finishes',
      place: 'doc-check',
      timeoutMs: 120_000,
      env: (c) => ({ REDIS_URL: c.redis.url, FORMS_WEBHOOK_SECRET: SECRET }),
      before: failedDeliveryAndAWorker,
    };
  if (document === 'apps/docs/guides/05-never-lose-a-submission.md' && text.startsWith('redis-server --appendonly yes'))
    // The test may not take Redis's default port: the same flags, on a free port.
    return {
      kind: 'starts',
      place: 'scratch',
      ready: /Ready to accept connections/,
      append: () => ` --port ${portForRedis} --dir .`,
    };
  if (document === 'packages/webhook-verify/README.md' && text.startsWith('SIGNATURE=$(forms-webhook sign'))
    // A reader's project with the CLI installed.
    return {
      kind: 'finishes',
      place: { project: ['@forms-api/webhook-verify'] },
      timeoutMs: 180_000,
      env: (c) => ({ FORMS_WEBHOOK_SECRET: SECRET, RECEIVER_URL: c.receiverUrl }),
    };
  return undefined;
}

let portForRedis = 0;
let context: Context;
// What the set-up started, each kept as soon as it is up: a set-up that fails half-way still has
// everything it started stopped, and its checkout removed, by afterAll.
let startedSandbox: SandboxHandle | undefined;
let startedRedis: RedisServer | undefined;
let checkout: ReaderShell | undefined;
let closeReceiver: (() => Promise<void>) | undefined;
const received: string[] = [];

beforeAll(async () => {
  // The servers first: a missing redis-server fails the file in seconds, before the checkout's
  // install and build.
  const started = await Promise.allSettled([
    startSandbox({ port: 0, allowPrivateWebhooks: true, rateLimit: false }).then((s) => (startedSandbox = s)),
    startRedisServer().then((r) => (startedRedis = r)),
  ]);
  for (const result of started) if (result.status === 'rejected') throw result.reason;
  const [sandbox, redis] = [startedSandbox!, startedRedis!];
  checkout = readerShell();
  const installLine = documentedCommands().find(
    (c) => c.document === 'README.md' && runFor(c.document, c.text)?.kind === 'installs-pnpm',
  );
  if (!installLine) throw new Error('README.md no longer prints how to install pnpm');
  checkout.installPnpm(installLine.text);
  checkout.checkOut(CHECKOUT_SET_UP);
  const receiver = createServer((req, res) => {
    let body = '';
    req
      .on('data', (c) => (body += c))
      .on(
        'end',
        () => (
          received.push(`${req.headers['x-webhook-signature']} ${req.headers['x-api-key']}`),
          res.writeHead(204).end()
        ),
      );
  });
  const { url: receiverBase, close } = await listen(receiver);
  closeReceiver = close;
  const scratch = join(checkout.scratch, 'reader-project');
  mkdirSync(scratch, { recursive: true });
  writeFileSync(
    join(scratch, 'payload.json'),
    '{"form_id":11,"form_title":"Contact us","submission_id":1,"submission":{"Name":"Jane Doé"}}',
  );
  portForRedis = await freePort();
  const formId = sandbox.workspaces[0]!.forms[0]!.id;
  const submissions = await fetch(`${sandbox.baseUrl}/open/forms/${formId}/submissions?status=completed&per_page=1`, {
    headers: { authorization: `Bearer ${sandbox.tokens.all}`, accept: 'application/json' },
  });
  const submissionId = ((await submissions.json()) as { data: Array<{ id: number }> }).data[0]!.id;
  context = {
    checkout,
    sandbox,
    submissionId,
    redis,
    receiverUrl: `${receiverBase}/webhooks/forms`,
    scratch,
  };
  // The local registry packs the checkout's packages before any command can rebuild them.
  await registryOf(context);
  for (const command of commands) {
    const run = runFor(command.document, command.text);
    if (run?.kind === 'finishes' && run.alongside && !alongside.has(command.text)) {
      const started = startFinishes(command.text, run, context);
      // Awaited by its test; until then a failure must not count as unhandled.
      started.catch(() => {});
      alongside.set(command.text, started);
    } else if (run && inReadersProject(run))
      readersLane.set(
        command.where,
        inReadersLane(() => execute(command.text, run).then(() => received.at(-1))),
      );
  }
  readersLane.set(
    RECIPE,
    inReadersLane(() => runRecipe(context).then(() => undefined)),
  );
  // Installing and building the reader's checkout (from this run's turbo cache) takes the longest.
}, 300_000);

afterAll(async () => {
  // A command started alongside whose test did not run (a filtered run) ends before its registry.
  await Promise.allSettled([...alongside.values(), ...readersLane.values()]);
  await Promise.allSettled([
    startedSandbox?.close(),
    startedRedis?.close(),
    registry?.then((r) => r.close()),
    closeReceiver?.(),
  ]);
  await checkout?.remove();
  // The reader's checkout holds an installed workspace: removing it takes a while on a busy machine.
}, 300_000);

/**
 * One delivery in the dead-letter set (received through the inbox, failed by a worker, no retries
 * left), then a worker that succeeds running until the returned stop is called.
 */
let seeded = 0;

const INBOX_TRIAL_PORTS = [7000, 7001, 7002, 7003, 7004, 7005, 6390, 6391, 26390, 26391, 26392];
async function shutDownInboxTrials(): Promise<void> {
  const script = INBOX_TRIAL_PORTS.map((port) => `redis-cli -p ${port} shutdown nosave > /dev/null 2>&1 || true`).join(
    '\n',
  );
  await runShell(script, { cwd: REPO_ROOT, env: process.env as Record<string, string>, timeoutMs: 30_000 });
}

async function failedDeliveryAndAWorker(c: Context): Promise<() => Promise<void>> {
  const { createInbox, createInboxWorker } = await import('@forms-api/webhook-inbox');
  const { inboxHandler } = await import('@forms-api/webhook-inbox/fetch');
  const { sign } = await import('@forms-api/webhook-verify');
  // The default queue: the printed commands name none.
  const inbox = createInbox({
    connection: c.redis.url,
    secret: SECRET,
    retry: { attempts: 1 },
    onRedisError: () => {},
  });
  let failed!: () => void;
  const failedOnce = new Promise<void>((resolve) => (failed = resolve));
  const failing = createInboxWorker({
    connection: c.redis.url,
    onRedisError: () => {},
    onFailure: ({ final }) => final && failed(),
    handler: () => Promise.reject(new Error('the CRM is down')),
  });
  try {
    // A new submission each time: a copy of an earlier delivery would be recognised and not queued.
    const body = JSON.stringify({ form_id: 11, form_title: 'Contact us', submission_id: ++seeded, submission: {} });
    const answer = await inboxHandler(inbox)(
      new Request('http://127.0.0.1/webhooks/forms', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': await sign(SECRET, body) },
        body,
      }),
    );
    expect(answer.status).toBe(202);
    await failedOnce;
  } finally {
    await Promise.all([failing.close(), inbox.close()]);
  }
  const healthy = createInboxWorker({ connection: c.redis.url, onRedisError: () => {}, handler: () => undefined });
  return () => healthy.close();
}

let registry: Promise<LocalRegistry> | undefined;
let projects = 0;

/** The local registry, started (the checkout's packages packed) once, by whichever asks first. */
function registryOf(c: Context): Promise<LocalRegistry> {
  return (registry ??= startLocalRegistry({ packageDirs: publishedPackageDirs(c.checkout.dir) }));
}

/** A new project of the reader's, outside the repository, whose .npmrc finds @forms-api on the local registry. */
async function readerProject(c: Context): Promise<string> {
  const { npmrc } = await registryOf(c);
  const dir = join(c.checkout.scratch, `reader-app-${++projects}`);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `reader-app-${projects}`, private: true, type: 'module' }, null, 2),
  );
  writeFileSync(join(dir, '.npmrc'), npmrc);
  return dir;
}

/** The workspace's packages of the published folders (spec, packages, apps). */
function workspacePackageDirs(checkout: string): string[] {
  return [
    'spec',
    ...readdirSync(join(checkout, 'packages')).map((d) => `packages/${d}`),
    ...readdirSync(join(checkout, 'apps')).map((d) => `apps/${d}`),
  ]
    .map((d) => join(checkout, d))
    .filter((d) => existsSync(join(d, 'package.json')));
}

/** Every workspace package of the checkout that is not private: what a release publishes. */
function publishedPackageDirs(checkout: string): string[] {
  return workspacePackageDirs(checkout).filter(
    (d) => !(JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { private?: boolean }).private,
  );
}

/**
 * What a reader's shell has: a fresh npm cache of this run, so npx and npm install resolve the
 * packages of this checkout, never ones an earlier run left in ~/.npm (npx reuses what it cached).
 */
const readerEnv = (c: Context): Record<string, string> => ({
  ...c.checkout.env,
  npm_config_cache: join(c.checkout.scratch, 'reader-npm-cache'),
});

async function placeOf(place: Place, c: Context): Promise<{ cwd: string; env: Record<string, string> }> {
  if (place === 'root') return { cwd: c.checkout.dir, env: c.checkout.env };
  if (place === 'doc-check') return { cwd: join(c.checkout.dir, 'apps/doc-check'), env: c.checkout.env };
  if (place === 'scratch') return { cwd: c.scratch, env: c.checkout.env };
  const project = await readerProject(c);
  const env = readerEnv(c);
  const installed = await runShell(`npm install ${place.project.join(' ')}`, { cwd: project, env, timeoutMs: 180_000 });
  expect(installed.code, installed.output).toBe(0);
  writeFileSync(join(project, 'payload.json'), readFileSync(join(c.scratch, 'payload.json')));
  return { cwd: project, env: { ...env, PATH: `${join(project, 'node_modules', '.bin')}:${c.checkout.env.PATH}` } };
}

/**
 * The runs that worked, by what they ran: the same command (its trailing comment aside: bash
 * ignores it) in the same place with the same settings. The documents print some commands more
 * than once (`pnpm contract` three times); a repeat proves nothing the first run did not, so it is
 * not run again: a `finishes` repeat needs the earlier run to have finished with 0, a `starts`
 * repeat an earlier run whose output showed its ready line. A run with a set-up of its own
 * (`before`, `append`, `whileReady`) is always run.
 */
const worked = new Map<string, { finished: boolean; output: string }>();

/** A one-line command without its trailing comment (`pnpm build   # …`): what bash runs. */
const withoutComment = (line: string) => line.replace(/\s+#\s.*$/, '');

function sameRunKey(text: string, run: Run, c: Context): string | undefined {
  if (run.kind !== 'finishes' && run.kind !== 'starts') return undefined;
  if (run.kind === 'finishes' ? run.before : run.append || run.whileReady) return undefined;
  const command = text.includes('\n') ? text : withoutComment(text);
  return JSON.stringify([command, run.place, run.env?.(c) ?? {}]);
}

/** The `alongside` commands, by text, started in beforeAll. */
const alongside = new Map<string, Promise<ShellResult>>();

/**
 * What runs in a reader's project of its own (a consumer install, or a command placed in a new
 * project with no set-up of its own) shares nothing with the checkout's commands: it runs in a lane
 * of its own beside them, started in beforeAll once the registry is ready. The lane takes one
 * command at a time, in document order, then the CI recipe: they share the tenant, which the recipe
 * writes to. By `where` (the CI recipe by its sample); each resolves to the last delivery the
 * test's receiver had when its command ended, and its test awaits it.
 */
const readersLane = new Map<string, Promise<string | undefined>>();
let readersLaneTail: Promise<unknown> = Promise.resolve();

function inReadersLane<T>(work: () => Promise<T>): Promise<T> {
  const started = readersLaneTail.then(work);
  readersLaneTail = started.catch(() => {});
  // Awaited by its test; until then a failure must not count as unhandled.
  started.catch(() => {});
  return started;
}

function inReadersProject(run: Run): boolean {
  if (run.kind === 'consumer-install') return true;
  if (run.kind === 'finishes') return typeof run.place === 'object' && !run.before && !run.alongside;
  if (run.kind === 'starts') return typeof run.place === 'object' && !run.append && !run.whileReady;
  return false;
}

/** Runs a `finishes` command in its place, with its settings, to its end (its `before` is the caller's). */
async function startFinishes(text: string, run: Extract<Run, { kind: 'finishes' }>, c: Context): Promise<ShellResult> {
  const { cwd, env } = await placeOf(run.place, c);
  return runShell(text, { cwd, env: { ...env, ...run.env?.(c) }, timeoutMs: run.timeoutMs ?? 60_000 });
}

async function execute(text: string, run: Run): Promise<void> {
  const c = context;
  const key = sameRunKey(text, run, c);
  const earlier = key === undefined ? undefined : worked.get(key);
  if (earlier && (run.kind === 'finishes' ? earlier.finished : run.kind === 'starts' && run.ready.test(earlier.output)))
    return;
  switch (run.kind) {
    case 'ci': {
      const ci = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');
      expect(ci, '.ci/run must run this command exactly as printed').toContain(run.runs ?? text);
      return;
    }
    case 'task': {
      expect(readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8'), '.ci/run must run `pnpm test`').toContain(EVERY_TEST);
      const scriptsOf = (dir: string) =>
        (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
      // `pnpm test` runs turbo under with-node-24 (tools/runtimes): the same tasks, on Node 24.
      const turboTasks = (script: string | undefined) =>
        /^(?:with-node-24 )?turbo run ([\w: -]+?)(?: --|$)/.exec(script ?? '')?.[1]?.split(' ');
      const tasks = turboTasks(scriptsOf(REPO_ROOT).test)!;
      const rootScript = /^pnpm (\S+)$/.exec(withoutComment(text))?.[1];
      if (rootScript !== undefined) {
        // A root script that is `turbo run` of tasks the root test script runs too, on the same tree.
        const its = turboTasks(scriptsOf(REPO_ROOT)[rootScript]);
        expect(its, `the root script ${rootScript} must be \`turbo run\` of tasks`).toBeDefined();
        expect(
          its!.filter((task) => !tasks.includes(task)),
          `tasks of ${rootScript} the root test does not run`,
        ).toEqual([]);
        return;
      }
      const [, name, script] = /^pnpm --filter (\S+) (\S+)/.exec(text)!;
      const dir = workspacePackageDirs(REPO_ROOT).find(
        (d) => (JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { name: string }).name === name,
      );
      expect(dir, `no workspace package is named ${name}`).toBeDefined();
      const scripts = scriptsOf(dir!);
      expect(scripts[script!], `${name} has no script ${script}`).toBeDefined();
      const ranByTest = tasks.includes('test') && (scripts.test ?? '').split(' && ').includes(scripts[script!]!);
      expect(
        tasks.includes(script!) || ranByTest,
        `${name}'s ${script} is neither a task of the root test script nor a command of its own test script`,
      ).toBe(true);
      return;
    }
    case 'sets-up-checkout':
      // Run in beforeAll as the checkout's set-up; here, it is that line, and it built the checkout.
      expect(withoutComment(text)).toBe(CHECKOUT_SET_UP);
      expect(existsSync(join(c.checkout.dir, 'apps/contract-tests/dist/cli.js'))).toBe(true);
      return;
    case 'installs-pnpm':
      // Run in beforeAll; here, the pnpm it installed is the pinned one.
      expect(
        (await runShell('pnpm --version', { cwd: c.scratch, env: c.checkout.env, timeoutMs: 30_000 })).output.trim(),
      ).toBe(/pnpm@([\d.]+)/.exec(text)![1]);
      return;
    case 'consumer-install': {
      const project = await readerProject(c);
      const result = await runShell(text, { cwd: project, env: readerEnv(c), timeoutMs: 180_000 });
      expect(result.code, `\`${text}\` exited ${result.code}:\n${result.output}`).toBe(0);
      const installed = JSON.parse(
        readFileSync(join(project, 'node_modules', run.packageName, 'package.json'), 'utf8'),
      ) as { name: string };
      expect(installed.name).toBe(run.packageName);
      return;
    }
    case 'lines':
      for (const [line, lineRun] of Object.entries(run.lines)) await execute(line, lineRun);
      return;
    case 'finishes': {
      const after = await run.before?.(c);
      try {
        const result = await (alongside.get(text) ?? startFinishes(text, run, c));
        expect(result.code, `\`${text}\` exited ${result.code}:\n${result.output}`).toBe(0);
        if (key !== undefined) worked.set(key, { finished: true, output: result.output });
      } finally {
        await after?.();
      }
      return;
    }
    case 'starts': {
      const { cwd, env } = await placeOf(run.place, c);
      const result = await runShell(text + (run.append?.(c) ?? ''), {
        cwd,
        env: { ...env, ...run.env?.(c) },
        timeoutMs: run.timeoutMs ?? 60_000,
        readyWhen: run.ready,
        ...(run.whileReady ? { whileReady: run.whileReady } : {}),
      });
      expect(
        result.ready,
        `\`${text}\` stopped (exit ${result.code}) before printing ${run.ready}:\n${result.output}`,
      ).toBe(true);
      if (key !== undefined && !worked.has(key)) worked.set(key, { finished: false, output: result.output });
      return;
    }
  }
}

const commands = documentedCommands();

describe('the printed commands', () => {
  it('are each known to this test', () => {
    const unknown = commands.filter((c) => !runFor(c.document, c.text)).map((c) => `${c.where}: ${c.text}`);
    expect(unknown, 'add each to RUNS with how to run it').toEqual([]);
  });

  for (const command of commands) {
    const run = runFor(command.document, command.text);
    if (!run) continue;
    it(
      `${command.where} works as printed: ${command.text.split('\n')[0]}`,
      async () => {
        const laned = readersLane.get(command.where);
        const lastDelivery = laned ? await laned : await execute(command.text, run).then(() => received.at(-1));
        if (command.text.includes('forms-webhook send')) expect(lastDelivery).toMatch(/^sha256=[0-9a-f]{64} k$/);
      },
      COMMAND_TEST_TIMEOUT_MS,
    );
  }
});

/**
 * The contract suite's CI recipe (the guide's workflow, a sample file) run step by step as printed,
 * in a reader's project against the local registry, with the sandbox as their tenant: the job's
 * variables and secrets become the tenant's settings, the `if:` alternatives both run, the job
 * summary shows the drift, and the folder the artifact step uploads holds both reports. The pull
 * request's run must start checking: the nightly's strict run, the same package and version on the
 * same tenant with more flags, runs to its end after it, and a whole run before it would repeat it.
 * Every other `run` exits 0 (the sandbox has no drift, so --strict passes too).
 * It runs last in the readers' lane; its test awaits it.
 */
const RECIPE = 'contract-tests/github-actions.yml';
const PULL_REQUEST_ONLY = "github.event_name != 'schedule'";

describe('the CI recipe of the contract suite', () => {
  it(`${RECIPE} runs as printed`, async () => {
    await readersLane.get(RECIPE);
  }, 900_000);
});

async function runRecipe(c: Context): Promise<void> {
  const job = workflowJob(readFileSync(join(SAMPLES_DIR, RECIPE), 'utf8'));
  const settings: Record<string, string> = {
    ...tenant(c),
    // The recipe pins an exact version: the one the local registry holds.
    FORMS_CONTRACT_TESTS_VERSION: (
      JSON.parse(readFileSync(join(REPO_ROOT, 'apps/contract-tests/package.json'), 'utf8')) as { version: string }
    ).version,
    FORMS_API_TOKEN_WITHOUT_FORMS_READ: c.sandbox.tokens.withoutRead ?? c.sandbox.tokens.write,
  };
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(job.env)) {
    const reference = /^\$\{\{ (?:vars|secrets)\.(\w+) \}\}$/.exec(value);
    expect(
      reference && settings[reference[1]!],
      `the job's ${name} (${value}) is not a variable or secret this test provides`,
    ).toBeTruthy();
    env[name] = settings[reference![1]!]!;
  }
  const { cwd, env: shellEnv } = await placeOf({ project: [] }, c);
  const summary = join(cwd, 'step-summary.md');
  const runs = job.steps.filter((step) => step.run !== undefined);
  expect(runs.map((step) => step.run)).toEqual(
    expect.arrayContaining([expect.stringContaining('--strict'), expect.not.stringContaining('--strict')]),
  );
  // The run a pull request makes is the strict run's command without the nightly's flags.
  const command = (run: string) => run.replace(/\s*\\\n\s*/g, ' ').replace(/ --report-dir \S+\s*$/, '');
  const pullRequest = runs.find((step) => step.if === PULL_REQUEST_ONLY)?.run;
  const strict = runs.find((step) => step.run!.includes('--strict'))!.run!;
  expect(pullRequest, `no step runs only on a pull request (if: ${PULL_REQUEST_ONLY})`).toBeDefined();
  expect(command(strict)).toContain(command(pullRequest!));
  for (const step of job.steps) {
    if (step.run !== undefined) {
      const startsOnly = step.if === PULL_REQUEST_ONLY;
      const result = await runShell(step.run, {
        cwd,
        env: { ...shellEnv, ...env, GITHUB_STEP_SUMMARY: summary },
        timeoutMs: 300_000,
        ...(startsOnly ? { readyWhen: CONTRACT_STARTED } : {}),
      });
      if (startsOnly) expect(result.ready, `step "${step.name}" stopped before checking:\n${result.output}`).toBe(true);
      else expect(result.code, `step "${step.name}" exited ${result.code}:\n${result.output}`).toBe(0);
    } else if (step.uses?.startsWith('actions/checkout@')) {
      // The reader's repository: the allow list the guide shows, where the recipe reads it.
      mkdirSync(join(cwd, '.github'), { recursive: true });
      copyFileSync(
        join(SAMPLES_DIR, 'contract-tests/contract-allowed-drift.txt'),
        join(cwd, '.github/contract-allowed-drift.txt'),
      );
    } else if (step.uses?.startsWith('actions/cache/')) {
      // Restore and save: the report folder simply stays on this machine between the steps.
      expect(step.with.path).toBe('contract-reports');
    } else if (step.uses?.startsWith('actions/upload-artifact@')) {
      const uploaded = readdirSync(join(cwd, step.with.path!));
      expect(uploaded).toEqual(expect.arrayContaining(['contract-report.json', 'contract-report.xml']));
    } else {
      // The runner's own set-up (this run uses the machine's Node, which the package supports).
      expect(step.uses, `a step this test does not know how to run: ${JSON.stringify(step)}`).toMatch(
        /^actions\/setup-node@/,
      );
    }
  }
  expect(readFileSync(summary, 'utf8')).toMatch(
    /^### Contract suite: \d+ passed, 0 failed, 0 known drift\n[\s\S]*Known drift seen:[\s\S]*Not seen \(fixed upstream, or not exercised\):\n- `/,
  );
  // The nightly step's report carries when each allowed entry was last seen, for the next run.
  const report = JSON.parse(readFileSync(join(cwd, 'contract-reports/contract-report.json'), 'utf8')) as {
    allowedDrift: { sightings: Array<{ id: string }> };
  };
  expect(report.allowedDrift.sightings.map((s) => s.id)).toEqual([
    'form-summary-plan-tier',
    'update-submission-response-shape',
  ]);
}
