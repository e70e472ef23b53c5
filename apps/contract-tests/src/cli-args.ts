// Command-line parsing of `pnpm contract`: options, targets (flags or FORMS_CONTRACT_TARGETS) and
// the report directory. Errors are values (a ContractTestsError of kind `usage`) with the text to print.
import { parseArgs } from 'node:util';
import { operationsOf } from './operations.js';
import { loadBundle } from './spec.js';
import { SHARED_RATE_LIMIT, type Result } from '@forms-api/types';
import { ContractTestsError } from './errors.js';
import { resolve } from 'node:path';
import { EMBEDDED_TARGETS, TARGET_NAMES, type TargetName } from './run-contract.js';
import { liveSettingsInEnvironment } from './targets/live.js';
import { DEFAULT_EXPLORE_BUDGET, DEFAULT_EXPLORE_TIME_LIMIT_MS, type ExploreOptions } from './explore/explore.js';

/** The service's shared bucket (the spec's, per user) in requests a minute: the live target's pace unless told otherwise. */
export const DEFAULT_RATE_LIMIT = (SHARED_RATE_LIMIT.limit * 60) / SHARED_RATE_LIMIT.windowSeconds;

export const HELP = `Usage: forms-contract [options]   (in this repository: pnpm contract [options])

Runs the contract suite. Without options: the prism, sandbox and sandbox-observed targets.

  --target <name>     prism, sandbox, sandbox-observed or live; repeat or comma-separate. The
                      list names exactly what runs: --target live runs your tenant alone;
                      --target prism,sandbox,live adds the mock and the contract's sandbox.
                      env FORMS_CONTRACT_TARGETS takes the same list (the flag wins).
                      sandbox follows the contract; sandbox-observed behaves like the service's
                      code, so it shows every known drift.
  --config <file>     JSON file with the live settings (see README); the environment wins.
                      Live settings (--config or FORMS_API_* variables) without a target list
                      naming live are refused: add --target live, or name the targets you want.
  --write             live target: also run the checks that change data (they undo their changes).
  --own-form          with --write: the checks that change data act on a form the run creates in
                      FORMS_API_WORKSPACE_ID (FORMS_API_FORM_ID's fields, no integration), answers
                      once and deletes at the end, whatever happens; no webhook reaches a receiver
                      of yours. Read-only checks still read FORMS_API_FORM_ID (optional with it).
  --destructive       with --write: also the checks that delete a workspace and add, remove or
                      change a member, each on a temporary one the run made (a workspace it
                      created; FORMS_API_MEMBER_EMAIL, an account it adds to your workspace
                      and removes again). Leaving a workspace is checked on the sandboxes only.
  --strict            known drift fails the run too (except on sandbox-observed, where it is
                      the expectation).
  --allow-drift <file>  with --strict: ledger entry ids (one a line, "<id> until YYYY-MM-DD" to
                      accept one until a date) whose known drift does not fail the run; any other
                      drift still does. An id the ledger does not have is refused (exit 2).
  --not-seen-days <n>  with --allow-drift: also report (never fail on) the listed entries no
                      tenant has shown for n days or more. When each was last seen is carried
                      by the report: the run reads the previous contract-report.json in
                      --report-dir (keep that folder between runs) and writes the new dates.
  --no-proxy          skip the prism proxy pass (of the sandboxes and of a live target).
  --no-preflight      live target: skip checking the settings against the tenant before the run
                      (reachable, the forms API, token accepted with its abilities, ids exist).
  --rate-limit <n>    live target: requests per minute the suite keeps within (default ${DEFAULT_RATE_LIMIT}, the
                      service's limit); 0 or off: no pacing (a 429 is still never reported as drift).
  --seed <n>          the explorer's seed (default: a new one each run, printed); the same seed
                      sends the same generated cases, so a finding replays.
  --explore-budget <n>  requests the explorer may send per target (default 200; 0: no exploring).
  --explore-time <s>  seconds the explorer may run per target (default 90).
  --operation <id>    only these operations (repeatable).
  --report-dir <dir>  where contract-report.{json,xml}, drift.md and coverage.json go (default ./reports).
  -h, --help          this text.

Exit codes: 0 passed; 1 an unexpected failure (with --strict, also drift it does not allow);
2 a bad command line or live settings that cannot work (a missing or malformed setting, a taken
webhook port, an --allow-drift file naming no ledger entry); 3 the tenant refused the live
settings in the preflight (nothing was run); 130 interrupted.`;

export interface CommandLine {
  readonly targets: TargetName[];
  readonly write: boolean;
  /** With write: the write checks act on a form the run makes and deletes (--own-form). */
  readonly ownForm: boolean;
  /** With write: the checks on workspaces and members (temporary ones). */
  readonly destructive: boolean;
  readonly strict: boolean;
  /** With --strict: the file of ledger entries whose known drift is accepted. */
  readonly allowDrift?: string;
  /** With --allow-drift: report listed entries not seen on a tenant for this many days. */
  readonly notSeenDays?: number;
  readonly proxy: boolean;
  /** Check the live settings against the tenant before the run. */
  readonly preflight: boolean;
  readonly config?: string;
  readonly reportDir: string;
  readonly operations?: string[];
  /** The explorer's seed, budget (requests per target; 0: off) and time bound. */
  readonly explore: ExploreOptions;
  /** Requests per minute the live target is paced to; `false`: no pacing. */
  readonly rateLimit: number | false;
  /** Said on stderr before the run: live settings present while the named targets leave the tenant out. */
  readonly notice?: string;
}

/** `--help`: no run, the text to print (exit 0). */
export interface HelpRequest {
  readonly help: string;
}

/** What to run, or the help; a malformed command line is a ContractTestsError of kind `usage` (exit 2) whose message is what to print. */
export function parseCommandLine(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Result<CommandLine | HelpRequest, ContractTestsError> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        target: { type: 'string', multiple: true },
        config: { type: 'string' },
        write: { type: 'boolean', default: false },
        'own-form': { type: 'boolean', default: false },
        destructive: { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
        'allow-drift': { type: 'string' },
        'not-seen-days': { type: 'string' },
        'no-proxy': { type: 'boolean', default: false },
        'no-preflight': { type: 'boolean', default: false },
        operation: { type: 'string', multiple: true },
        'report-dir': { type: 'string' },
        'rate-limit': { type: 'string' },
        seed: { type: 'string' },
        'explore-budget': { type: 'string' },
        'explore-time': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    return {
      ok: false,
      error: new ContractTestsError('usage', `${error instanceof Error ? error.message : String(error)}\n\n${HELP}`),
    };
  }
  if (values.help) return { ok: true, value: { help: HELP } };
  if (values.destructive && !values.write)
    return {
      ok: false,
      error: new ContractTestsError(
        'usage',
        '--destructive needs --write: it adds to what --write runs (checks that change data and undo it)',
      ),
    };
  if (values['own-form'] && !values.write)
    return {
      ok: false,
      error: new ContractTestsError(
        'usage',
        "--own-form needs --write: it gives the checks that change data a form of the run's own, and without --write nothing is changed",
      ),
    };
  const fromArgs = (values.target ?? [])
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  const fromEnv = (env.FORMS_CONTRACT_TARGETS ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  // The flag and the variable are one setting: a list of exactly the targets to run (the flag wins).
  const names = fromArgs.length > 0 ? fromArgs : fromEnv.length > 0 ? fromEnv : [...EMBEDDED_TARGETS];
  const unknown = names.filter((n) => !(TARGET_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0)
    return {
      ok: false,
      error: new ContractTestsError(
        'usage',
        `unknown target ${unknown.join(', ')} (known: ${TARGET_NAMES.join(', ')})`,
        {
          context: { unknown },
        },
      ),
    };
  // Live settings with no target naming the tenant: a CI job that forgot `--target live` must not
  // go green without reaching it (issue 22). Refused rather than run: a command line that does not
  // name a tenant never sends it requests (a shell may carry FORMS_API_TOKEN for other tools).
  const liveSettings = [...(values.config ? ['--config'] : []), ...liveSettingsInEnvironment(env)];
  let notice: string | undefined;
  if (!names.includes('live') && liveSettings.length > 0) {
    const named = fromArgs.length > 0 || fromEnv.length > 0;
    if (!named || values.config) {
      return {
        ok: false,
        error: new ContractTestsError(
          'usage',
          `live settings are set (${liveSettings.join(', ')}) but no target names the tenant: add --target live to run it, ` +
            `or name the targets to run without it (--target ${names.join(',')})${values.config ? ' and drop --config, which only the live target reads' : ''}.`,
        ),
      };
    }
    notice = `live settings are set (${liveSettings.join(', ')}) but the targets named (${names.join(', ')}) leave the tenant out: it is not run.`;
  }
  if (values['own-form'] && !names.includes('live'))
    return {
      ok: false,
      error: new ContractTestsError(
        'usage',
        `--own-form makes its form on your tenant, which no target names (${names.join(', ')}): add --target live, or drop --own-form (the sandboxes are disposable)`,
      ),
    };
  if (values['allow-drift'] !== undefined && !values.strict)
    return {
      ok: false,
      error: new ContractTestsError(
        'usage',
        '--allow-drift only changes what --strict fails on: add --strict, or drop --allow-drift (without --strict known drift never fails the run)',
      ),
    };
  if (values['not-seen-days'] !== undefined && values['allow-drift'] === undefined)
    return {
      ok: false,
      error: new ContractTestsError(
        'usage',
        '--not-seen-days counts the days since each entry of the --allow-drift file was last seen: add --strict --allow-drift <file>, or drop --not-seen-days',
      ),
    };
  const notSeenDays = wholeNumber('--not-seen-days', values['not-seen-days'], 0, 3650);
  if (!notSeenDays.ok) return notSeenDays;
  if (values['not-seen-days'] !== undefined && notSeenDays.value < 1)
    return {
      ok: false,
      error: new ContractTestsError('usage', '--not-seen-days must be a number of days, 1 or more'),
    };
  const rateLimit = parseRateLimit(values['rate-limit']);
  if (!rateLimit.ok) return rateLimit;
  const seed = wholeNumber('--seed', values.seed, randomSeed(), 2 ** 31 - 1);
  if (!seed.ok) return seed;
  const budget = wholeNumber('--explore-budget', values['explore-budget'], DEFAULT_EXPLORE_BUDGET, 1_000_000);
  if (!budget.ok) return budget;
  const seconds = wholeNumber('--explore-time', values['explore-time'], DEFAULT_EXPLORE_TIME_LIMIT_MS / 1000, 86_400);
  if (!seconds.ok) return seconds;
  // Every operation of the spec the suite runs, including one added since the types were generated.
  const known = values.operation ? [...operationsOf(loadBundle()).keys()] : [];
  const unknownOperations = (values.operation ?? []).filter((id) => !known.includes(id));
  if (unknownOperations.length > 0)
    return {
      ok: false,
      error: new ContractTestsError(
        'usage',
        `unknown operation ${unknownOperations.join(', ')} (known: ${known.join(', ')})`,
        {
          context: { unknown: unknownOperations },
        },
      ),
    };
  return {
    ok: true,
    value: {
      targets: [...new Set(names)] as TargetName[],
      write: values.write,
      ownForm: values['own-form'],
      destructive: values.destructive,
      strict: values.strict,
      proxy: !values['no-proxy'],
      preflight: !values['no-preflight'],
      rateLimit: rateLimit.value,
      explore: { seed: seed.value, budget: budget.value, timeLimitMs: seconds.value * 1000 },
      // Relative to where it runs: an installed suite lives in node_modules, where nobody looks.
      reportDir: resolve(values['report-dir'] ?? 'reports'),
      ...(values.config ? { config: resolve(values.config) } : {}),
      ...(values['allow-drift'] !== undefined ? { allowDrift: resolve(values['allow-drift']) } : {}),
      ...(values['not-seen-days'] !== undefined ? { notSeenDays: notSeenDays.value } : {}),
      ...(values.operation ? { operations: values.operation } : {}),
      ...(notice ? { notice } : {}),
    },
  };
}

function parseRateLimit(value: string | undefined): Result<number | false, ContractTestsError> {
  if (value === undefined) return { ok: true, value: DEFAULT_RATE_LIMIT };
  if (value === 'off' || value === '0') return { ok: true, value: false };
  if (!/^\d+(\.\d+)?$/.test(value) || !(Number(value) > 0)) {
    return {
      ok: false,
      error: new ContractTestsError(
        'usage',
        `--rate-limit must be a number of requests per minute (e.g. ${DEFAULT_RATE_LIMIT}, the service's limit), or 0 / off for no pacing; got "${value}"`,
      ),
    };
  }
  return { ok: true, value: Number(value) };
}

/** A seed when none is given: each run explores differently, and prints the seed that replays it. */
const randomSeed = (): number => Math.floor(Math.random() * (2 ** 31 - 1));

function wholeNumber(
  option: string,
  value: string | undefined,
  fallback: number,
  max: number,
): Result<number, ContractTestsError> {
  if (value === undefined) return { ok: true, value: fallback };
  if (!/^\d+$/.test(value) || Number(value) > max)
    return {
      ok: false,
      error: new ContractTestsError('usage', `${option} must be a whole number from 0 to ${max}; got "${value}"`),
    };
  return { ok: true, value: Number(value) };
}
