// After a DELETE answered 2xx, the suite reads the removed thing back, derived from the spec's
// paths: its own GET answers 404 and the lists at its parent path no longer carry its id; a
// removed member's token reads the workspace no more (removeWorkspaceUser's hand suite). They
// catch a removal that answers 200 and keeps the thing (the sandbox's deep faults on the new
// operations), on both sandboxes; the healthy ones pass them.
import { describe, expect, it } from 'vitest';
import { operationsOf } from '../src/operations.js';
import { loadSpec } from '../src/spec.js';
import { sandboxFaultSource } from '../src/selftest/faults.js';
import { renderSelfTest, runSelfTest } from '../src/selftest/run-self-test.js';
import { readBacksOfRemoval } from '../src/suites/after-removal.js';
import { suitesFor } from '../src/suites/index.js';

const spec = loadSpec();
const operations = operationsOf(spec.bundle);
const readBacks = (operationId: string) => {
  const found = readBacksOfRemoval(operations.get(operationId)!, operations);
  return found && { resource: found.resource.map((o) => o.operationId), lists: found.lists.map((o) => o.operationId) };
};

describe('the read-back after a removal', () => {
  it('reads the removed thing by its own path and its parent lists, as the paths say', () => {
    expect(readBacks('deleteForm')).toEqual({ resource: ['getForm'], lists: ['listAllForms'] });
    expect(readBacks('deleteFormIntegration')).toEqual({ resource: [], lists: ['listFormIntegrations'] });
    expect(readBacks('removeWorkspaceUser')).toEqual({ resource: [], lists: ['listWorkspaceUsers'] });
    // Reads have none.
    expect(readBacks('getForm')).toBeUndefined();
  });

  it('is a live check of each removal with a happy path', () => {
    const names = (operationId: string) =>
      suitesFor(spec.bundle)
        .find((s) => s.operationId === operationId)!
        .checks.map((c) => c.name);
    expect(names('deleteForm')).toContain('after a removal: its path answers 404 and its parent lists drop it');
    expect(names('getForm')).not.toContain('after a removal: its path answers 404 and its parent lists drop it');
  });

  for (const behaviour of ['contract', 'observed'] as const)
    it(`catches a removal that keeps what it removed (a form, a member's access) on the ${behaviour} sandbox, and passes the healthy one`, async () => {
      const all = sandboxFaultSource(behaviour);
      const faults = ['deleted-form-still-listed', 'removed-member-still-reads'];
      const source = { ...all, faults: all.faults.filter((f) => faults.includes(f.name)) };
      const report = await runSelfTest(spec, source);
      expect(report.baselineFailures.map((r) => `${r.operationId} ${r.name}: ${r.reason}`)).toEqual([]);
      expect(report.total).toBe(2);
      expect(report.caught, renderSelfTest(report)).toBe(2);
      const evidence = (fault: string) => report.verdicts.find((v) => v.fault === fault)!.evidence.join('\n');
      expect(evidence('deleted-form-still-listed')).toMatch(/after a removal/);
      expect(evidence('removed-member-still-reads')).toMatch(/the removed member reads the workspace no more/);
    }, 300_000);
});
