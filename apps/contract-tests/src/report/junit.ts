// JUnit XML for CI systems: one testsuite per target, one testcase per check. Failed checks are
// <failure>, skipped ones <skipped>; known drift is a passing case with a system-out note (or a
// failure under --strict, unless --allow-drift accepts it) so CI dashboards stay green only when the run is.
import { failsUnderStrict, type RunReport } from './model.js';

/** Escapes text for XML content and attributes; drops characters XML 1.0 forbids. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

export function renderJUnit(report: RunReport): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const targets = [...new Set(report.results.map((r) => r.target))];
  const errored = report.targets.filter((t) => t.error);
  const failuresOf = (name: string) =>
    report.results.filter((r) => r.target === name && (r.outcome === 'failed' || failsUnderStrict(report, r))).length;
  const totalFailures = targets.reduce((n, t) => n + failuresOf(t), 0) + errored.length;
  lines.push(
    `<testsuites name="forms-api contract" tests="${report.results.length + errored.length}" failures="${totalFailures}">`,
  );
  for (const target of targets) {
    const results = report.results.filter((r) => r.target === target);
    const skipped = results.filter((r) => r.outcome === 'skipped').length;
    const time = results.reduce((ms, r) => ms + r.durationMs, 0) / 1000;
    lines.push(
      `  <testsuite name="${xmlEscape(target)}" tests="${results.length}" failures="${failuresOf(target)}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}">`,
    );
    for (const r of results) {
      lines.push(
        `    <testcase classname="${xmlEscape(`${target}.${r.operationId}`)}" name="${xmlEscape(r.name)}" time="${(r.durationMs / 1000).toFixed(3)}">`,
      );
      const body = xmlEscape([r.reason ?? '', ...r.curl.map((c) => `repro: ${c}`)].filter(Boolean).join('\n'));
      if (r.outcome === 'failed' || failsUnderStrict(report, r)) {
        lines.push(
          `      <failure message="${xmlEscape((r.reason ?? 'failed').split('\n')[0]!)}" type="${r.outcome}">${body}</failure>`,
        );
      } else if (r.outcome === 'skipped') {
        lines.push(`      <skipped message="${xmlEscape(r.reason ?? 'skipped')}"/>`);
      } else if (r.outcome === 'known-drift' || r.outcome === 'info') {
        lines.push(`      <system-out>${body}</system-out>`);
      }
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  for (const t of errored) {
    lines.push(`  <testsuite name="${xmlEscape(t.name)}" tests="1" failures="1" errors="0" skipped="0">`);
    lines.push(
      `    <testcase classname="${xmlEscape(t.name)}" name="start target"><failure message="${xmlEscape(t.error!.split('\n')[0]!)}">${xmlEscape(t.error!)}</failure></testcase>`,
    );
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}
