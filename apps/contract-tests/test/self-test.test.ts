// The suite must be able to fail: run it against a deliberately broken target (a mutating proxy in
// front of Prism) once per fault, and require that each fault is reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/spec.js';
import { proxyFaultSource, type FaultSource } from '../src/selftest/faults.js';
import { renderSelfTest, runSelfTest } from '../src/selftest/run-self-test.js';

// AT MERGE: add sandboxFaultSource() (src/selftest/faults.ts) as a second source here.
describe('self-test: the suite catches injected faults', () => {
  const spec = loadSpec();
  let source: FaultSource;
  beforeAll(async () => {
    source = await proxyFaultSource(spec);
  });
  afterAll(async () => {
    await source?.close();
  });

  it('reports every fault of the mutating proxy, and none on the healthy baseline', async () => {
    const report = await runSelfTest(spec, source);
    console.log(renderSelfTest(report));
    expect(report.baselineFailures.map((r) => `${r.operationId} ${r.name}: ${r.reason}`)).toEqual([]);
    expect(report.verdicts.filter((v) => !v.caught).map((v) => v.fault)).toEqual([]);
    expect(report.caught).toBe(report.total);
  });
});
