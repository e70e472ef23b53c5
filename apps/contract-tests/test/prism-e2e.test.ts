// One end-to-end run of the prism target: every operation and documented status, all green.
import { describe, expect, it } from 'vitest';
import { runContract } from '../src/run-contract.js';
import { OPERATIONS } from '@forms-api/types';
import { loadSpec } from '../src/spec.js';

describe('prism target end to end', () => {
  it('exercises every operation and every documented status, and passes', async () => {
    const spec = loadSpec();
    const { report } = await runContract({
      spec,
      targets: ['prism'],
      write: false,
      strict: false,
      proxyPass: false,
      signal: new AbortController().signal,
      log: () => {},
    });
    const failed = report.results.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => `${r.operationId} ${r.name}: ${r.reason}`)).toEqual([]);
    expect(report.exitCode).toBe(0);
    for (const { operationId, statuses } of Object.values(OPERATIONS)) {
      for (const status of statuses) {
        expect(
          report.results.some(
            (r) =>
              r.operationId === operationId && r.name.startsWith(`documented ${status} `) && r.outcome === 'passed',
          ),
          `${operationId} ${status}`,
        ).toBe(true);
      }
    }
  });
});
