// The suite must be able to fail: run it against deliberately broken targets, once per fault, and
// require that each fault is reported: here a mutating proxy in front of Prism; the sandbox's own
// fault switches (each a real contract violation of a stateful tenant) in the two
// self-test-of-the-*-sandbox files, so that the three runs go side by side. All draw on the
// sandbox's one fault catalogue.
import { FAULT_CATALOGUE, SANDBOX_FAULTS, type SandboxFault } from '@forms-api/sandbox/faults';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/spec.js';
import { PROXY_FAULTS, SANDBOX_FAULT_CASES, proxyFaultSource, type FaultSource } from '../src/selftest/faults.js';
import { renderSelfTest, runSelfTest } from '../src/selftest/run-self-test.js';

describe('one fault catalogue', () => {
  it('gives the sandbox source every fault, and the proxy the very rewrites of the faults they share', () => {
    expect(SANDBOX_FAULT_CASES.map((f) => f.name)).toEqual([...SANDBOX_FAULTS]);
    // A catalogue fault that only rewrites responses works on any exchange: the proxy must apply
    // the catalogue's own function, not a copy. The others (request or delivery rewrites of a
    // stateful tenant) the proxy states for a mock, in its own way.
    const catalogued = PROXY_FAULTS.flatMap((f) =>
      f.name in FAULT_CATALOGUE ? [{ proxy: f, fault: FAULT_CATALOGUE[f.name as SandboxFault] }] : [],
    );
    const responseOnly = catalogued.filter(({ fault }) => fault.response && !fault.request && !fault.delivery);
    expect(responseOnly.length).toBeGreaterThan(0);
    expect(
      responseOnly.filter(({ proxy, fault }) => proxy.apply.response !== fault.response).map(({ proxy }) => proxy.name),
    ).toEqual([]);
  });
});

describe('self-test: the suite catches injected faults', () => {
  const spec = loadSpec();

  describe('mutating proxy in front of Prism', () => {
    let source: FaultSource;
    beforeAll(async () => {
      source = await proxyFaultSource(spec);
    });
    afterAll(async () => {
      await source?.close();
    });

    it('reports every fault, and none on the healthy baseline', async () => {
      const report = await runSelfTest(spec, source);
      console.log(renderSelfTest(report));
      expect(report.baselineFailures.map((r) => `${r.operationId} ${r.name}: ${r.reason}`)).toEqual([]);
      expect(report.verdicts.filter((v) => !v.caught).map((v) => v.fault)).toEqual([]);
      expect(report.caught).toBe(report.total);
    });
  });
});
