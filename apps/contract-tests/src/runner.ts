// Runs the checks of the suites against one target and turns what they gathered into results:
// passed, failed, known drift (matched to the ledger), skipped, or informational. Results leave here
// safe to show: secrets redacted, tenant text printable, long lists and bodies cut.
import { CheckContext } from './check-context.js';
import { operationsOf } from './operations.js';
import { createLedgerIndex, type DriftVerdict, type LedgerIndex } from './drift.js';
import { CheckFailed, SkipCheck, type CheckResult, type Exchange, type Failure, type Outcome } from './model.js';
import { toCurl } from './report/curl.js';
import { printable } from './report/printable.js';
import { createPlaceholderRedactor, redactValue, type Redact } from './report/placeholders.js';
import type { SpecArtifacts } from './spec.js';
import type { Check, OperationSuite } from './suites/types.js';
import type { Target } from './targets/target.js';
import { makeOwnForm, namesAForm, withOwnForm, type OwnFormIds } from './own-form.js';

export interface RunOptions {
  readonly spec: SpecArtifacts;
  readonly suites: OperationSuite[];
  readonly signal: AbortSignal;
  /** Only these operations (all when absent). */
  readonly operations?: string[];
  /** Called as each check finishes (progress output). */
  readonly onResult?: (result: CheckResult) => void;
  readonly onStart?: (
    target: string,
    check: Check,
    progress: { readonly done: number; readonly total: number },
  ) => void;
}

/** Schema errors a result keeps (the rest are counted in `schemaErrorCount`). */
const KEPT_SCHEMA_ERRORS = 20;
/** Longest field of a failure (message, expected, received) a result shows. */
const MAX_FIELD_CHARS = 2_000;
/** How much of a request or response body a result keeps (results live until the run ends). */
const KEPT_BODY_CHARS = 2_000;

export async function runTarget(target: Target, options: RunOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const ledger = createLedgerIndex(options.spec.ledger);
  const emit = (result: CheckResult): void => {
    results.push(result);
    options.onResult?.(result);
  };
  const selected = options.suites.filter(
    (suite) => !options.operations || options.operations.includes(suite.operationId),
  );
  const runs = (check: Check) => !check.on || check.on === target.kind;
  const total = selected.reduce((n, suite) => n + suite.checks.filter(runs).length, 0);
  let done = 0;
  const skip = (check: Check, reason: string) =>
    emit({
      target: target.name,
      operationId: check.operationId,
      name: check.name,
      outcome: 'skipped',
      reason,
      failures: [],
      driftIds: [],
      curl: [],
      durationMs: 0,
    });
  const operations = operationsOf(options.spec.bundle);
  /** Every selected check: the writes on `writes`, the others on `reads` (absent: the run's own form could not be made). */
  const runAll = async (reads: Target | undefined, writes: Target | undefined): Promise<void> => {
    for (const suite of selected) {
      for (const check of suite.checks) {
        if (!runs(check)) continue;
        if (options.signal.aborted) {
          skip(check, 'interrupted');
          continue;
        }
        if (check.writes && target.kind === 'live' && !target.write) {
          skip(check, 'changes data: run with --write to include it');
          continue;
        }
        if (check.destructive && target.kind === 'live' && !target.destructive) {
          skip(
            check,
            "changes the user's workspaces (on temporary ones only): run with --write --destructive to include it",
          );
          continue;
        }
        // A write operation's checks too (its refusals: a service that took one would change the form).
        const on = check.writes || operations.get(check.operationId)?.method !== 'GET' ? writes : reads;
        if (!on) {
          skip(check, `needs the run's own form (--own-form), which could not be made: see createForm › ${OWN_FORM}`);
          continue;
        }
        options.onStart?.(target.name, check, { done, total });
        for (const result of await runCheck(on, check, options, ledger)) emit(result);
        done++;
      }
    }
  };
  const anyWrite = selected.some((suite) => suite.checks.some((c) => c.writes && runs(c)));
  if (target.kind === 'live' && target.write && target.ownForm && (anyWrite || !namesAForm(target))) {
    // Made in a check of its own, whose cleanups (the form's deletion) run when every other check
    // has run, interrupted or not; its result says what was made and whether it was removed.
    const ownForm: Check = {
      name: OWN_FORM,
      operationId: 'createForm',
      on: 'live',
      writes: true,
      async run(ctx) {
        let made: OwnFormIds | undefined;
        let failure: unknown;
        try {
          made = await makeOwnForm(ctx);
        } catch (error) {
          failure = error;
        }
        const { reads, writes } = withOwnForm(target, made);
        await runAll(reads, writes);
        if (failure !== undefined) throw failure;
      },
    };
    options.onStart?.(target.name, ownForm, { done, total });
    for (const result of await runCheck(target, ownForm, options, ledger)) emit(result);
  } else await runAll(target, target);
  return results;
}

/** The check that makes, answers and deletes the run's own form (--own-form). */
export const OWN_FORM = "--own-form: the run's own form for the writes, made, answered once and deleted";

/** One line of display text from a value a check gathered: redacted, printable, not too long. */
function displayField(text: string, redact: Redact, max = MAX_FIELD_CHARS): string {
  const shown = printable(redact(text));
  return shown.length > max
    ? `${shown.slice(0, max)}… (${(shown.length - max).toLocaleString('en-US')} more characters)`
    : shown;
}

/** What a result keeps of a failure: redacted, with its first schema errors and their count, and short bodies. */
function keptFailure(failure: Failure, redact: Redact): Failure {
  const { schemaErrors, exchange, ...rest } = failure;
  const kept: Failure = {
    ...rest,
    ...(schemaErrors
      ? { schemaErrors: schemaErrors.slice(0, KEPT_SCHEMA_ERRORS), schemaErrorCount: schemaErrors.length }
      : {}),
    ...(exchange ? { exchange: keptExchange(exchange) } : {}),
  };
  return redactValue(kept, redact);
}

function keptExchange(exchange: Exchange): Exchange {
  const { responseBody, requestBody, ...rest } = exchange;
  return {
    ...rest,
    ...(requestBody !== undefined ? { requestBody: requestBody.slice(0, KEPT_BODY_CHARS) } : {}),
    ...(responseBody !== undefined ? { responseBody: responseBody.slice(0, KEPT_BODY_CHARS) } : {}),
  };
}

/**
 * Runs `body` in `ctx` as a check runs: a skip gives its reason, failures thrown as a value join the
 * context's, anything else thrown is a setup failure, and the cleanups run whatever happened (the
 * suite must leave a tenant as it found it). The explorer runs each generated case through it too.
 */
export async function runInContext(ctx: CheckContext, body: () => Promise<void>): Promise<string | undefined> {
  let skipped: string | undefined;
  try {
    await body();
  } catch (error) {
    if (error instanceof SkipCheck) skipped = error.message;
    else if (error instanceof CheckFailed) ctx.failures.push(...error.failures);
    else
      ctx.fail({
        kind: 'setup',
        message: `the check threw: ${error instanceof Error ? error.message : String(error)}`,
      });
  } finally {
    ctx.cleaningUp = true;
    for (const cleanup of ctx.cleanups.splice(0).reverse()) {
      try {
        await cleanup.run();
      } catch (error) {
        ctx.fail({
          kind: 'setup',
          message: `cleanup "${cleanup.label}" failed: ${error instanceof Error ? error.message : String(error)} — remove it by hand`,
        });
      }
    }
  }
  return skipped;
}

/** Each failure with the ledger's verdict: only a live target's answers are matched (a mock's are the spec's own). */
export function verdictsOf(
  target: Target,
  failures: readonly Failure[],
  ledger: LedgerIndex,
): Array<{ failure: Failure; verdict: DriftVerdict | undefined }> {
  return failures.map((failure) => ({ failure, verdict: target.kind === 'live' ? ledger.match(failure) : undefined }));
}

async function runCheck(
  target: Target,
  check: Check,
  options: RunOptions,
  ledger: LedgerIndex,
): Promise<CheckResult[]> {
  const started = Date.now();
  const ctx = new CheckContext(target, options.spec, options.signal);
  const base = { target: target.name, operationId: check.operationId, name: check.name };
  const skipped = await runInContext(ctx, () => check.run(ctx));
  const redact = createPlaceholderRedactor(new Map([...target.secrets, ...ctx.extraSecrets]));
  const field = (text: string): string => displayField(text, redact);
  const curlOf = (failures: Failure[]): string[] => [
    ...new Set(
      // Redacted value by value, then quoted: nothing may rewrite the line afterwards.
      failures.flatMap((f) => (f.exchange ? [toCurl(f.exchange, redact)] : [])),
    ),
  ];
  // One line per failure: whatever a tenant sent inside it is escaped, so lines are the suite's own.
  const reasonOf = (failures: Failure[]): string =>
    failures
      .map(
        (f) =>
          `${field(f.message)}${f.expected || f.received ? ` [expected: ${field(f.expected ?? '-')}; received: ${field(f.received ?? '-')}]` : ''}`,
      )
      .join('\n');
  const durationMs = Date.now() - started;
  const results: CheckResult[] = [];

  if (skipped !== undefined && ctx.failures.length === 0) {
    results.push({
      ...base,
      outcome: 'skipped',
      reason: field(skipped),
      failures: [],
      driftIds: [],
      curl: [],
      durationMs,
    });
  } else {
    const verdicts = verdictsOf(target, ctx.failures, ledger);
    const unexpected = verdicts.filter((v) => !v.verdict?.known);
    const driftIds = [...new Set(verdicts.flatMap((v) => v.verdict?.entryIds ?? []))];
    const outcome: Outcome = ctx.failures.length === 0 ? 'passed' : unexpected.length === 0 ? 'known-drift' : 'failed';
    results.push({
      ...base,
      outcome,
      ...(outcome === 'failed' ? { reason: reasonOf(unexpected.map((v) => v.failure)) } : {}),
      ...(outcome === 'known-drift'
        ? { reason: `known drift: ${driftIds.join(', ')}\n${reasonOf(ctx.failures)}` }
        : {}),
      // Tenants echo what they were sent: what a result keeps is redacted like what it prints.
      failures: ctx.failures.map((f) => keptFailure(f, redact)),
      driftIds,
      curl: curlOf(outcome === 'failed' ? unexpected.map((v) => v.failure) : ctx.failures),
      durationMs,
    });
  }
  // Additive drift (closed validation) is informational; matched to the ledger it is known drift.
  for (const note of ctx.notes) {
    const verdict = target.kind === 'live' ? ledger.match(note.failure) : undefined;
    results.push({
      ...base,
      name: `${check.name} (${note.label ?? 'closed schema'})`,
      outcome: verdict?.known ? 'known-drift' : 'info',
      reason: `${verdict?.known ? `known drift: ${verdict.entryIds.join(', ')}\n` : ''}${field(`${note.message}: ${note.failure.received ?? ''}`)}`,
      failures: [keptFailure(note.failure, redact)],
      driftIds: verdict?.entryIds ?? [],
      curl: curlOf([note.failure]),
      durationMs: 0,
    });
  }
  return results;
}
