// Proves the suite can fail: runs it against a healthy baseline and then once per injected fault,
// and counts the faults it reports (a failed check in the fault's operations).
import type { CheckResult } from '../model.js';
import { runTarget } from '../runner.js';
import type { SpecArtifacts } from '../spec.js';
import { allSuites } from '../suites/index.js';
import type { FaultSource } from './faults.js';

export interface FaultVerdict {
  readonly fault: string;
  readonly caught: boolean;
  /** The failed checks that reported it (first lines). */
  readonly evidence: string[];
}

export interface SelfTestReport {
  readonly source: string;
  readonly baselineFailures: CheckResult[];
  readonly verdicts: FaultVerdict[];
  readonly caught: number;
  readonly total: number;
}

export async function runSelfTest(spec: SpecArtifacts, source: FaultSource, signal: AbortSignal = new AbortController().signal): Promise<SelfTestReport> {
  const run = async (fault: string | undefined, operations?: string[]) => {
    const target = await source.start(fault);
    try {
      return await runTarget(target, { spec, suites: allSuites, signal, ...(operations ? { operations } : {}) });
    } finally {
      await target.stop();
    }
  };
  const baselineOps = [...new Set(source.faults.flatMap((f) => f.operations))];
  const baselineFailures = (await run(undefined, baselineOps)).filter((r) => r.outcome === 'failed');
  const verdicts: FaultVerdict[] = [];
  for (const fault of source.faults) {
    const failed = (await run(fault.name, fault.operations)).filter((r) => r.outcome === 'failed' && fault.operations.includes(r.operationId));
    verdicts.push({ fault: fault.name, caught: failed.length > 0, evidence: failed.map((r) => `${r.operationId} › ${r.name}: ${(r.reason ?? '').split('\n')[0]}`) });
  }
  return { source: source.name, baselineFailures, verdicts, caught: verdicts.filter((v) => v.caught).length, total: verdicts.length };
}

export function renderSelfTest(report: SelfTestReport): string {
  const lines = [`self-test (${report.source}): faults caught ${report.caught}/${report.total}`];
  for (const v of report.verdicts) lines.push(`  ${v.caught ? '✓' : '✗'} ${v.fault}${v.evidence[0] ? ` — ${v.evidence[0]}` : ' — NOT REPORTED'}`);
  if (report.baselineFailures.length > 0) lines.push(`  baseline had ${report.baselineFailures.length} failure(s): the healthy target must pass`);
  return lines.join('\n');
}
