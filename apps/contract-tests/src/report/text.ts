// The readable summary printed at the end: per target and operation the counts, then every
// failure with expected vs received and a curl repro, then the ledger entries seen and not seen.
import type { RunReport } from './model.js';
import { formatDuration, totalsOf } from './model.js';
import { coverageLine, invariantLines } from './coverage.js';

const pad = (text: string, width: number): string =>
  text.length >= width ? text : text + ' '.repeat(width - text.length);
const indent = (text: string, by = '      '): string =>
  text
    .split('\n')
    .map((l) => by + l)
    .join('\n');

export function renderSummary(report: RunReport): string {
  const out: string[] = [];
  out.push('', '== Contract suite summary ==', '');
  for (const target of report.targets) {
    // The target's own results and its prism proxy pass (named after it).
    const results = report.results.filter(
      (r) => r.target === target.name || r.target === `${target.name} (prism proxy)`,
    );
    if (target.error) {
      out.push(`target ${target.name}: ERROR — ${target.error}`, '');
      continue;
    }
    const byTarget = [...new Set(results.map((r) => r.target))];
    for (const name of byTarget) {
      const mine = results.filter((r) => r.target === name);
      const t = totalsOf(mine);
      out.push(
        `target ${name}: ${t.passed} passed, ${t.failed} failed, ${t['known-drift']} known drift, ${t.skipped} skipped, ${t.info} info`,
      );
      out.push(
        `  ${pad('operation', 26)} ${pad('passed', 7)} ${pad('failed', 7)} ${pad('drift', 6)} ${pad('skipped', 8)} info`,
      );
      for (const op of [...new Set(mine.map((r) => r.operationId))]) {
        const o = totalsOf(mine.filter((r) => r.operationId === op));
        out.push(
          `  ${pad(op, 26)} ${pad(String(o.passed), 7)} ${pad(String(o.failed), 7)} ${pad(String(o['known-drift']), 6)} ${pad(String(o.skipped), 8)} ${o.info}`,
        );
      }
      out.push('');
    }
  }
  const failures = report.results.filter((r) => r.outcome === 'failed');
  if (failures.length > 0) {
    out.push('-- Failures --');
    for (const r of failures) {
      out.push(`✗ [${r.target}] ${r.operationId} › ${r.name}`);
      if (r.reason) out.push(indent(r.reason));
      for (const curl of r.curl) out.push(indent(`repro: ${curl}`));
    }
    out.push('');
  }
  const drift = report.results.filter((r) => r.outcome === 'known-drift');
  if (drift.length > 0) {
    out.push(
      `-- Known drift (${report.strict ? `fails the run: --strict${report.allowedDrift ? `, except the ${report.allowedDrift.ids.length} entries --allow-drift accepts` : ''}` : 'not failing; --strict makes it fail'}) --`,
    );
    // One line per distinct finding: a check repeated over pages or seeds says the same thing N times.
    const lines = new Map<string, number>();
    for (const r of drift) {
      const line = `~ [${r.target}] ${r.operationId} › ${r.name}: ${r.driftIds.join(', ')}`;
      lines.set(line, (lines.get(line) ?? 0) + 1);
    }
    for (const [line, count] of lines) out.push(count > 1 ? `${line} (${count}×)` : line);
    out.push('');
  }
  for (const e of report.allowedDrift?.expired ?? [])
    out.push(`--allow-drift: the allowance of ${e.id} ended ${e.until}; its drift fails --strict again.`, '');
  for (const e of report.allowedDrift?.notSeen ?? [])
    out.push(
      `--allow-drift: no tenant has shown ${e.id} for ${e.days} days (${e.lastSeen ? `last seen ${e.lastSeen}` : `not once since ${e.trackedSince}`}; --not-seen-days ${report.allowedDrift!.notSeenDays}): fixed upstream? Drop it from the allow list (this does not fail the run).`,
      '',
    );
  const skipped = report.results.filter((r) => r.outcome === 'skipped');
  if (skipped.length > 0) {
    out.push('-- Skipped --');
    const reasons = new Map<string, string[]>();
    for (const r of skipped)
      reasons.set(`[${r.target}] ${r.reason ?? ''}`, [
        ...(reasons.get(`[${r.target}] ${r.reason ?? ''}`) ?? []),
        `${r.operationId} › ${r.name}`,
      ]);
    for (const [reason, checks] of reasons)
      out.push(`- ${reason} (${checks.length}: ${checks.slice(0, 3).join('; ')}${checks.length > 3 ? '; …' : ''})`);
    out.push('');
  }
  if (report.ledgerSeen.length > 0 || report.ledgerNotSeen.length > 0) {
    out.push('-- Drift ledger --');
    for (const e of report.ledgerSeen) out.push(`seen     ${e.id} (${e.count}× on ${e.targets.join(', ')})`);
    for (const e of report.ledgerNotSeen)
      out.push(`not seen ${e.id} — fixed upstream, or not exercised by this configuration?`);
    out.push('');
  }
  if (report.expectationFailures.length > 0) {
    out.push('-- Drift expectations not met --');
    for (const line of report.expectationFailures) out.push(`✗ ${line}`);
    out.push('');
  }
  const traffic = report.targets.filter((x) => x.traffic);
  if (traffic.length > 0) {
    out.push('-- Requests --');
    for (const x of traffic) {
      const tr = x.traffic!;
      const paced = tr.unlimited
        ? ', not spaced: the tenant reports no rate limit'
        : tr.requestsPerMinute !== undefined
          ? `, paced at ${tr.requestsPerMinute}/min, waited ${formatDuration(tr.waitedMs ?? 0)}${tr.rateLimited ? ` (${tr.rateLimited}× 429 met, ${formatDuration(tr.rateLimitedWaitMs ?? 0)} of it after them${tr.gaveUp ? `, ${tr.gaveUp} still refused past the bound` : ', all waited out'})` : ''}`
          : '';
      out.push(`${x.name}: ${tr.requests} requests sent${paced}, ${formatDuration(tr.durationMs)}`);
    }
    out.push(`duration: ${formatDuration(report.durationMs)}`, '');
  }
  if (report.coverage.length > 0) {
    out.push('-- Coverage (coverage.json) --');
    for (const c of report.coverage) out.push(coverageLine(c));
    out.push('', '-- Invariants judged per operation (coverage.json) --');
    for (const c of report.coverage)
      out.push(
        ...invariantLines(c, (operationId) => {
          const mine = report.results.filter((r) => r.target === c.target && r.operationId === operationId);
          return { ran: mine.filter((r) => r.outcome !== 'skipped').length, of: mine.length };
        }),
      );
    out.push('');
  }
  if (report.explore)
    out.push(
      `explore: seed ${report.explore.seed} — replay the generated cases with --seed ${report.explore.seed}`,
      '',
    );
  const t = report.totals;
  out.push(
    `Total: ${t.passed} passed, ${t.failed} failed, ${t['known-drift']} known drift, ${t.skipped} skipped, ${t.info} info — ${report.exitCode === 0 ? 'OK' : 'FAILED'}`,
  );
  return out.join('\n');
}
