// Proves the suite can fail: runs it against a healthy baseline and then once per injected fault,
// and counts the faults it reports (a failed check in the fault's operations).
import type { CheckResult } from '../model.js';
import { runTarget } from '../runner.js';
import type { SpecArtifacts } from '../spec.js';
import { suitesFor } from '../suites/index.js';
import { DEFAULT_EXPLORE_BUDGET, DEFAULT_EXPLORE_TIME_LIMIT_MS, exploreSuite } from '../explore/explore.js';
import type { FaultCase, FaultSource } from './faults.js';

export interface FaultVerdict {
  readonly fault: string;
  readonly caught: boolean;
  /** The failed checks that reported it (first lines). */
  readonly evidence: string[];
  /** The names of the checks that reported it, the explorer's first. */
  readonly caughtBy: string[];
  /** Reported by one of the explorer's generated cases (not only by a check written for it). */
  readonly byExplorer: boolean;
}

export interface SelfTestReport {
  readonly source: string;
  readonly baselineFailures: CheckResult[];
  readonly verdicts: FaultVerdict[];
  readonly caught: number;
  readonly total: number;
}

/** The explorer's seed in the self-test: a fixed one, so a verdict replays. */
export const SELF_TEST_SEED = 18;

export interface SelfTestOptions {
  readonly signal?: AbortSignal;
  /** The explorer's seed (default SELF_TEST_SEED). */
  readonly seed?: number;
  /** Only these faults of the source (default: all). */
  readonly faults?: readonly string[];
  /** Told each verdict as soon as its run ends (a sweep prints as it goes). */
  readonly onVerdict?: (verdict: FaultVerdict) => void;
  /**
   * End a fault's run at the first check of its operations that fails: the verdict names that
   * check alone. The written checks run before the explorer, so a fault they catch never waits
   * for the generated cases (default: every check runs, and the verdict names them all).
   */
  readonly firstFinding?: boolean;
  /** Faults whose runs have the explorer's generated cases alone: what shows they find it unaided. */
  readonly explorerAlone?: readonly string[];
}

/** A failed check of one of the fault's operations: the suite reported the fault. */
const reports = (fault: FaultCase, result: CheckResult) =>
  result.outcome === 'failed' && fault.operations.includes(result.operationId);

export async function runSelfTest(
  spec: SpecArtifacts,
  source: FaultSource,
  {
    signal = new AbortController().signal,
    seed = SELF_TEST_SEED,
    faults: only,
    onVerdict,
    firstFinding = false,
    explorerAlone = [],
  }: SelfTestOptions = {},
): Promise<SelfTestReport> {
  const unknown = only?.filter((name) => !source.faults.some((f) => f.name === name)) ?? [];
  if (unknown.length > 0) throw new Error(`${source.name} has no fault ${unknown.join(', ')}`);
  const faults = only ? source.faults.filter((f) => only.includes(f.name)) : source.faults;
  const run = async (fault: FaultCase | undefined, operations?: string[]) => {
    const target = await source.start(fault?.name);
    const found = new AbortController();
    try {
      // The written checks and the explorer with its default budget (it runs on live targets only).
      const suites = [
        ...(fault && explorerAlone.includes(fault.name) ? [] : suitesFor(spec.bundle)),
        ...exploreSuite(spec, {
          seed,
          budget: DEFAULT_EXPLORE_BUDGET,
          timeLimitMs: DEFAULT_EXPLORE_TIME_LIMIT_MS,
        }),
      ];
      const onResult = (result: CheckResult) => {
        if (firstFinding && fault && reports(fault, result)) found.abort();
      };
      return await runTarget(target, {
        spec,
        suites,
        signal: AbortSignal.any([signal, found.signal]),
        onResult,
        ...(operations ? { operations } : {}),
      });
    } finally {
      await target.stop();
    }
  };
  const baselineOps = [...new Set(faults.flatMap((f) => f.operations))];
  const baselineFailures = (await run(undefined, baselineOps)).filter((r) => r.outcome === 'failed');
  const verdicts: FaultVerdict[] = [];
  for (const fault of faults) {
    const failed = (await run(fault, fault.operations)).filter((r) => reports(fault, r));
    const evidence = failed.map((r) => `${r.operationId} › ${r.name}: ${(r.reason ?? '').split('\n')[0]}`);
    // The explorer's finding first: it is what shows a fault no check was written for is found.
    evidence.sort((a, b) => Number(b.includes('› explore:')) - Number(a.includes('› explore:')));
    const verdict: FaultVerdict = {
      fault: fault.name,
      caught: failed.length > 0,
      evidence,
      caughtBy: [...new Set(failed.map((r) => r.name))].sort(
        (a, b) => Number(b.startsWith('explore:')) - Number(a.startsWith('explore:')),
      ),
      byExplorer: evidence.some((e) => e.includes('› explore:')),
    };
    verdicts.push(verdict);
    onVerdict?.(verdict);
  }
  return {
    source: source.name,
    baselineFailures,
    verdicts,
    caught: verdicts.filter((v) => v.caught).length,
    total: verdicts.length,
  };
}

export function renderSelfTest(report: SelfTestReport): string {
  const lines = [`self-test (${report.source}): faults caught ${report.caught}/${report.total}`];
  for (const v of report.verdicts)
    lines.push(`  ${v.caught ? '✓' : '✗'} ${v.fault}${v.evidence[0] ? ` — ${v.evidence[0]}` : ' — NOT REPORTED'}`);
  if (report.baselineFailures.length > 0)
    lines.push(`  baseline had ${report.baselineFailures.length} failure(s): the healthy target must pass`);
  return lines.join('\n');
}
