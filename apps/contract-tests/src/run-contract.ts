// Orchestrates a run: starts each requested target, runs the suites (and the prism proxy pass for
// live targets), stops everything it started, and builds the report.
import { createRequestPacer, type Clock } from '@forms-api/client';
import type { AllowedDrift } from './allow-drift.js';
import type { CheckResult } from './model.js';
import type { Check } from './suites/types.js';
import { exploreSuite, type ExploreOptions } from './explore/explore.js';
import { buildReport, formatDuration, type RunReport, type TargetRun, type TargetTraffic } from './report/model.js';
import { createCoverageCollector, type CoverageCollector } from './report/coverage.js';
import { runTarget } from './runner.js';
import type { SpecArtifacts } from './spec.js';
import { sendOf, suitesFor } from './suites/index.js';
import { proxySuitesFor } from './suites/prism-proxy-pass.js';
import { ContractTestsError } from './errors.js';
import { liveTarget, type LiveSettings } from './targets/live.js';
import { namesAForm } from './own-form.js';
import { preflightLive } from './targets/preflight.js';
import { envVariableOf } from './targets/settings.js';
import { startPrismProxy, startPrismTarget } from './targets/prism.js';
import { startSandboxTarget } from './targets/sandbox.js';
import type { Target } from './targets/target.js';

/** `sandbox-observed`: the sandbox behaving like the service's code, where every ledger entry must be seen. */
export const TARGET_NAMES = ['prism', 'sandbox', 'sandbox-observed', 'live'] as const;
/** What runs without a live tenant. */
export const EMBEDDED_TARGETS: readonly TargetName[] = ['prism', 'sandbox', 'sandbox-observed'];
export type TargetName = (typeof TARGET_NAMES)[number];

export interface ContractOptions {
  readonly spec: SpecArtifacts;
  readonly targets: TargetName[];
  readonly write: boolean;
  /** With write, on the live target: the write checks act on a form the run makes and deletes. */
  readonly ownForm?: boolean;
  /** With write: also the checks that add and remove members and delete workspaces (temporary ones). */
  readonly destructive?: boolean;
  readonly strict: boolean;
  /** With strict: the entries whose known drift does not fail the run (--allow-drift). */
  readonly allowedDrift?: AllowedDrift;
  readonly proxyPass: boolean;
  /** Check the live settings against the tenant before any target starts (default true). */
  readonly preflight?: boolean;
  /** The explorer's seed and bounds; absent or a budget of 0: no exploring. */
  readonly explore?: ExploreOptions;
  /** Requests per minute the live target is paced to; `false` (or absent): no pacing. */
  readonly rateLimit?: number | false;
  /** Time of the live target's pacer (the client's `clock`); default the real one. */
  readonly clock?: Clock;
  /** The live target's settings, validated by the caller (`loadLiveConfig`) before anything starts. */
  readonly live?: LiveSettings;
  readonly signal: AbortSignal;
  readonly operations?: string[];
  readonly log: (line: string) => void;
  /** Filled with each target's secrets as it starts (the caller redacts its output with it). */
  readonly secrets?: Map<string, string>;
}

export interface ContractRun {
  readonly report: RunReport;
  /** Every secret seen, for redaction of whatever the caller prints or writes. */
  readonly secrets: Map<string, string>;
}

async function startTarget(name: TargetName, options: ContractOptions): Promise<Target> {
  switch (name) {
    case 'prism':
      return startPrismTarget(options.spec);
    case 'sandbox':
      return startSandboxTarget({ expectsDrift: 'none', proxyPass: options.proxyPass });
    case 'sandbox-observed':
      return startSandboxTarget({
        name: 'sandbox (observed)',
        behaviour: 'observed',
        expectsDrift: 'every-entry',
        proxyPass: options.proxyPass,
      });
    case 'live': {
      if (!options.live)
        throw new ContractTestsError(
          'live_config',
          'the live target needs its settings: pass `live`, the value of loadLiveConfig() for the environment or --config file',
        );
      const pacer = options.rateLimit
        ? createRequestPacer({
            requestsPerMinute: options.rateLimit,
            // A tenant that reports no limit (a sandbox with its limit off, a proxy) is not spaced.
            onlyWhenLimited: true,
            ...(options.clock ? { clock: options.clock } : {}),
            // Pacing waits are many and short (summed in the progress lines); a 429 is worth a line.
            onWait: (wait) => {
              if (wait.reason === 'rate_limited')
                options.log(
                  `  … [live] ${wait.method} ${wait.path} answered 429 (${wait.refusals}×): waiting ${Math.ceil(wait.waitMs / 1000)} s as the service asked`,
                );
            },
          })
        : undefined;
      return liveTarget(options.live, {
        write: options.write,
        ownForm: options.ownForm === true,
        destructive: options.destructive === true,
        proxyPass: options.proxyPass,
        ...(pacer ? { pacer } : {}),
      });
    }
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const SYMBOL: Record<CheckResult['outcome'], string> = {
  passed: '✓',
  failed: '✗',
  'known-drift': '~',
  skipped: '-',
  info: 'i',
};

export async function runContract(options: ContractOptions): Promise<ContractRun> {
  const startedAt = new Date();
  const targets: TargetRun[] = [];
  const results: CheckResult[] = [];
  // Each target's coverage (its prism proxy pass has one of its own), in the order they ran.
  const coverage: CoverageCollector[] = [];
  const secrets = options.secrets ?? new Map<string, string>();
  const onResult = (r: CheckResult) =>
    options.log(
      `  ${SYMBOL[r.outcome]} [${r.target}] ${r.operationId} › ${r.name}${r.outcome === 'failed' ? ` — ${(r.reason ?? '').split('\n')[0]}` : ''}`,
    );
  let lastOp = '';
  let current: { target: Target; startedAt: number } | undefined;
  const onStart = (target: string, check: Check, progress: { done: number; total: number }) => {
    if (`${target}/${check.operationId}` !== lastOp)
      options.log(
        `[${target}] ${check.operationId}${current ? progressOf(current.target, current.startedAt, progress) : ''}`,
      );
    lastOp = `${target}/${check.operationId}`;
  };

  // The tenant first, before the local targets take their time: settings that cannot work stop the
  // run with one message (a ContractTestsError of kind preflight_failed) rather than as failures.
  let live: Target | undefined;
  if (options.targets.includes('live') && options.live) {
    live = await startTarget('live', options);
    for (const [secret, placeholder] of live.secrets) secrets.set(secret, placeholder);
    try {
      // Its webhook receiver too: a port asked for and taken is said now (port_in_use), not as checks failing.
      if (live.webhooks) {
        const receiver = await live.webhooks.receiver();
        options.log(
          `== target live: webhook receiver on 127.0.0.1:${receiver.port} (${envVariableOf('webhookReceiverUrl')} must forward there)`,
        );
      }
      if (options.preflight !== false) {
        options.log('== target live: checking the settings against the tenant');
        await preflightLive(live, options.signal);
      }
    } catch (error) {
      await live.stop();
      throw error;
    }
  }

  for (const name of options.targets) {
    if (options.signal.aborted) break;
    options.log(`== target ${name}: starting`);
    let target: Target;
    try {
      target = name === 'live' && live ? live : await startTarget(name, options);
    } catch (error) {
      const message = messageOf(error);
      options.log(`== target ${name}: could not start: ${message}`);
      targets.push({ name, kind: name === 'prism' ? 'mock' : name === 'live' ? 'live' : 'sandbox', error: message });
      continue;
    }
    for (const [secret, placeholder] of target.secrets) secrets.set(secret, placeholder);
    const collector = createCoverageCollector(target.name, options.spec.bundle, target.baseUrl);
    coverage.push(collector);
    target = { ...target, traffic: { requests: 0 }, coverage: collector };
    current = { target, startedAt: Date.now() };
    const targetStartedAt = Date.now();
    // Results are kept as they come, so a crash of the suite itself still leaves them in the report.
    const collect = (r: CheckResult) => {
      results.push(r);
      onResult(r);
    };
    let crash: string | undefined;
    try {
      // The explorer after the written checks, with an allowance of its own per target.
      const suites =
        options.explore && options.explore.budget > 0
          ? [...suitesFor(options.spec.bundle), ...exploreSuite(options.spec, options.explore)]
          : suitesFor(options.spec.bundle);
      await runTarget(target, {
        spec: options.spec,
        suites,
        signal: options.signal,
        onResult: collect,
        onStart,
        ...(options.operations ? { operations: options.operations } : {}),
      });
      if (target.kind === 'live' && target.proxyPass && !options.signal.aborted) {
        // Its reads come after the run's own form is gone: they need a form of the settings.
        if (namesAForm(target)) await proxyPass(target, options, collect, onStart, coverage);
        else
          options.log(
            `== target ${target.name}: no prism proxy pass: it reads ${envVariableOf('formId')}, which is not set (the run's own form is deleted by then)`,
          );
      }
    } catch (error) {
      crash = `the suite crashed on this target: ${messageOf(error)}`;
      options.log(`== target ${target.name}: ${crash}`);
    } finally {
      try {
        await target.stop();
        options.log(`== target ${target.name}: stopped`);
      } catch (error) {
        crash ??= `could not stop the target: ${messageOf(error)}`;
      }
    }
    targets.push({
      name: target.name,
      kind: target.embedded ? 'sandbox' : target.kind,
      ...(target.expectsDrift ? { expectsDrift: target.expectsDrift } : {}),
      ...(crash ? { error: crash } : {}),
      traffic: trafficOf(target, Date.now() - targetStartedAt),
    });
  }
  // Interrupted before its turn: the live target's receiver is still open.
  if (live && !targets.some((t) => t.name === live.name)) await live.stop();
  return {
    report: buildReport({
      startedAt,
      strict: options.strict,
      ...(options.allowedDrift
        ? {
            allowedDrift: {
              ids: [...options.allowedDrift.ids],
              expired: [...options.allowedDrift.expired],
              ...(options.allowedDrift.tracking ? { tracking: options.allowedDrift.tracking } : {}),
            },
          }
        : {}),
      targets,
      results,
      ledger: options.spec.ledger,
      ...(options.explore && options.explore.budget > 0 ? { explore: options.explore } : {}),
      coverage: coverage.map((c) => c.summary()),
    }),
    secrets,
  };
}

/** The read-only requests again, through `prism proxy --errors` in front of the live target. */
async function proxyPass(
  target: Target,
  options: ContractOptions,
  onResult: (r: CheckResult) => void,
  onStart: NonNullable<Parameters<typeof runTarget>[1]['onStart']>,
  coverage: CoverageCollector[],
): Promise<void> {
  const name = `${target.name} (prism proxy)`;
  let proxy;
  try {
    proxy = await startPrismProxy(options.spec, target.baseUrl);
  } catch (error) {
    onResult({
      target: name,
      operationId: '-',
      name: 'start prism proxy',
      outcome: 'info',
      reason: `prism proxy did not start: ${messageOf(error)}`,
      failures: [],
      driftIds: [],
      curl: [],
      durationMs: 0,
    });
    return;
  }
  const collector = createCoverageCollector(name, options.spec.bundle, proxy.baseUrl);
  coverage.push(collector);
  try {
    await runTarget(
      { ...target, name, baseUrl: proxy.baseUrl, write: false, coverage: collector },
      {
        spec: options.spec,
        suites: proxySuitesFor(options.spec.bundle, sendOf),
        signal: options.signal,
        onResult,
        onStart,
        ...(options.operations ? { operations: options.operations } : {}),
      },
    );
  } finally {
    await proxy.stop();
  }
}

/** What a target's run cost: requests, waits, 429s (from its pacer when it has one), and duration. */
function trafficOf(target: Target, durationMs: number): TargetTraffic {
  const stats = target.pacer?.stats();
  return {
    requests: target.traffic?.requests ?? stats?.requests ?? 0,
    durationMs,
    ...(stats
      ? {
          requestsPerMinute: stats.limit,
          waitedMs: stats.waitedMs,
          rateLimitedWaitMs: stats.rateLimitedWaitMs,
          rateLimited: stats.rateLimited,
          gaveUp: stats.gaveUp,
        }
      : {}),
    ...(stats?.unlimited ? { unlimited: true } : {}),
  };
}

/** ` (12/58 checks; 85 requests, waited 41 s; about 2 min left)`: a paced run is long, and says how long. */
function progressOf(target: Target, startedAt: number, progress: { done: number; total: number }): string {
  const stats = target.pacer?.stats();
  if (!stats) return '';
  const elapsed = Date.now() - startedAt;
  // What is left, at the pace of the checks so far (waits included); at least what the budget allows.
  const perCheck = progress.done > 0 ? elapsed / progress.done : 0;
  const requestsPerCheck = progress.done > 0 ? stats.requests / progress.done : 0;
  const left = (progress.total - progress.done) * Math.max(perCheck, (requestsPerCheck * 61_000) / stats.limit);
  return ` (${progress.done}/${progress.total} checks; ${stats.requests} requests, waited ${formatDuration(stats.waitedMs)}${stats.rateLimited ? `, ${stats.rateLimited}× 429 waited out` : ''}${progress.done > 0 ? `; about ${formatDuration(left)} left` : ''})`;
}
