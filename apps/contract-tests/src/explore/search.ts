// The explorer's search: a check's cases, generated from the spec's schemas (fast-check: seeds,
// shrinking) or taken from a small set, each run in a context of its own by the runner's rules
// (`runInContext`, `verdictsOf`) within the check's share of the target's request budget; a finding
// is reported with its shrunk case and the seed that replays it.
import fc from 'fast-check';
import type { SpecOperation } from '@forms-api/spec/operations';
import type { OperationId } from '@forms-api/types';
import { CheckContext } from '../check-context.js';
import type { LedgerIndex } from '../drift.js';
import type { Failure } from '../model.js';
import { runInContext, verdictsOf } from '../runner.js';
import type { Check } from '../suites/types.js';
import type { Target } from '../targets/target.js';

/** How far the explorer goes on each target, and the seed that replays its cases. */
export interface ExploreOptions {
  /** Replays a run: the same seed sends the same cases. */
  readonly seed: number;
  /** Most requests the explorer sends per target (shrinking included). */
  readonly budget: number;
  /** Longest the explorer runs per target. */
  readonly timeLimitMs: number;
}

/** Shared by the checks of one target: the budget left and when time runs out. */
interface Allowance {
  requestsLeft: number;
  readonly deadline: number;
  /** Checks still to share the budget (those that try every case of a small set take their cases off the top). */
  checksLeft: number;
}

/** An explore check before it is handed to the runner: `exhaustive` ones try a small set of cases, each once. */
export type ExploreCheck = Check & {
  readonly exhaustive?: boolean;
  /** Requests it takes off the top, outside the others' shares (a few cases, the first tried whatever the seed). */
  readonly fixedShare?: number;
};

/** The runner's id of a check of `op`: the spec's operationId. */
export const asCheck = (op: SpecOperation) => op.operationId as OperationId;

/**
 * What tells two findings of one check apart: the operation, the kind, what was observed and the
 * status received, and for a schema failure the first rule broken (not the values, which shrink).
 */
const defectOf = (f: Failure) =>
  [f.kind, f.operationId, f.observation, f.receivedStatus, f.schemaErrors?.[0]?.schemaPath].join(' ');

/**
 * The search of one suite: `checks` are the suite's explore checks (filled before any of them runs),
 * among which each target's budget is shared.
 */
export function createSearch(options: ExploreOptions, ledger: LedgerIndex, checks: readonly ExploreCheck[]) {
  // By the target's name: a --own-form run gives its write checks a copy of the target (another object).
  const allowances = new Map<string, Allowance>();
  const allowanceOf = (target: Target): Allowance => {
    let allowance = allowances.get(target.name);
    if (!allowance) {
      allowance = {
        requestsLeft: options.budget,
        deadline: Date.now() + options.timeLimitMs,
        checksLeft: checks.filter((c) => !c.exhaustive && !c.fixedShare && (!c.writes || target.write)).length,
      };
      allowances.set(target.name, allowance);
    }
    return allowance;
  };

  /**
   * Runs a property over generated cases within this check's share of the budget, each case in a
   * context of its own by the runner's rules; records each distinct unexpected failure, shrunk,
   * with the seed, and one example of each known drift. A failure does not end the search: the
   * property runs again with what was found counted as passing (the cases tried before it are not
   * sent again), so that one defect cannot hide another, until no new one turns up or the share is
   * spent.
   */
  async function explore<T>(
    ctx: CheckContext,
    name: string,
    arbitrary: fc.Arbitrary<T>,
    run: (scratch: CheckContext, value: T) => Promise<void>,
    requestsPerCase: number,
    describe: (value: T) => string,
    /** Cases tried first, whatever the seed (one of each class a ledger entry depends on; every case of an exhaustive check). */
    examples: T[] = [],
    exhaustive = false,
    /** This check's share when it takes a fixed one (`ExploreCheck.fixedShare`). */
    fixedShare?: number,
  ): Promise<void> {
    if (exhaustive) return exploreCases(ctx, name, examples, run, requestsPerCase, describe, [], true);
    const a = allowanceOf(ctx.target);
    const share = fixedShare ?? Math.floor(a.requestsLeft / Math.max(1, a.checksLeft));
    if (fixedShare === undefined) a.checksLeft--;
    const numRuns = Math.max(examples.length, 1, Math.floor(share / requestsPerCase / 2)); // half for shrinking
    let spent = 0;
    const known = new Map<string, Failure>();
    const found = new Set<string>();
    // Cases of the seed's sequence already tried by an earlier round: the same seed generates them again.
    let tried = 0;
    for (;;) {
      let last: { unexpected: Failure[]; value: T } | undefined;
      let generated = 0;
      const result = await fc.check(
        fc.asyncProperty(arbitrary, async (value) => {
          if (last === undefined && generated++ < tried) return true;
          if (spent >= share || a.requestsLeft - spent <= 0 || Date.now() > a.deadline || ctx.signal.aborted)
            return true;
          // Secrets a case registers are the check's: its results are redacted with them.
          const scratch = new CheckContext(ctx.target, ctx.spec, ctx.signal, ctx.extraSecrets);
          // Whatever a case created is undone before the next one (and before shrinking repeats it).
          await runInContext(scratch, () => run(scratch, value));
          spent += scratch.recorder.size;
          const verdicts = verdictsOf(ctx.target, scratch.failures, ledger);
          for (const { failure, verdict } of verdicts)
            if (verdict?.known) for (const id of verdict.entryIds) if (!known.has(id)) known.set(id, failure);
          const unexpected = verdicts.filter((v) => !v.verdict?.known && !found.has(defectOf(v.failure)));
          if (unexpected.length === 0) return true;
          last = { unexpected: unexpected.map((v) => v.failure), value };
          return false;
        }),
        {
          seed: options.seed,
          numRuns,
          examples: examples.map((example) => [example] as [T]),
          interruptAfterTimeLimit: Math.max(1, a.deadline - Date.now()),
          markInterruptAsFailure: false,
        },
      );
      if (!result.failed || !last) break;
      tried = generated;
      const replay = `found by the explorer (${name}; shrunk case: ${describe(last.value)}); replay: --seed ${options.seed}`;
      for (const failure of last.unexpected) {
        found.add(defectOf(failure));
        ctx.fail({ ...failure, message: `${failure.message} — ${replay}` });
      }
    }
    a.requestsLeft -= spent;
    for (const failure of known.values()) ctx.fail(failure);
  }

  /**
   * Tries a finite set of cases, each once: `first`, then the others in the seed's order, within
   * the check's share of the budget (every case when `exhaustive`). Reports every failing case, not
   * the first: each unexpected failure with its case and the seed, each distinct known one once. A
   * case is already minimal (nothing to shrink), and stopping at a failure would hide every later one.
   */
  async function exploreCases<T>(
    ctx: CheckContext,
    name: string,
    cases: readonly T[],
    run: (scratch: CheckContext, value: T) => Promise<void>,
    requestsPerCase: number,
    describe: (value: T) => string,
    first: readonly T[] = [],
    exhaustive = false,
  ): Promise<void> {
    const a = allowanceOf(ctx.target);
    const share = exhaustive ? cases.length * requestsPerCase : Math.floor(a.requestsLeft / Math.max(1, a.checksLeft));
    if (!exhaustive) a.checksLeft--;
    const rest = cases.filter((c) => !first.includes(c));
    const shuffled =
      rest.length > 1
        ? fc.sample(fc.shuffledSubarray(rest, { minLength: rest.length }), { seed: options.seed, numRuns: 1 })[0]!
        : rest;
    let spent = 0;
    const known = new Set<string>();
    for (const value of [...first, ...shuffled]) {
      if (spent >= share || a.requestsLeft - spent <= 0 || Date.now() > a.deadline || ctx.signal.aborted) break;
      const scratch = new CheckContext(ctx.target, ctx.spec, ctx.signal, ctx.extraSecrets);
      await runInContext(scratch, () => run(scratch, value));
      spent += scratch.recorder.size;
      const found = `found by the explorer (${name}; case: ${describe(value)}); replay: --seed ${options.seed}`;
      for (const { failure, verdict } of verdictsOf(ctx.target, scratch.failures, ledger)) {
        if (!verdict?.known) ctx.fail({ ...failure, message: `${failure.message} — ${found}` });
        else {
          const key = `${verdict.entryIds.join(' ')} ${failure.operationId ?? ''} ${failure.message}`;
          if (!known.has(key)) ctx.fail(failure);
          known.add(key);
        }
      }
    }
    a.requestsLeft -= spent;
  }
  return { explore, exploreCases };
}
