// What an operation added to the spec still needs by hand (CONTRIBUTING, "Adding an operation"):
// the sandbox's route, its docs samples and the ledger's entries; in the suite only a write the
// spec's links cannot run, a body with no example, or a request nothing of the target fills.
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../src/run-contract.js';
import { loadSpec } from '../src/spec.js';
import { isContractTestsError } from '../src/errors.js';
import { handWorkOf, suitesFor } from '../src/suites/index.js';
import { GADGETS, syntheticSpec, WIDGET, WIDGETS } from './synthetic-operation.js';

const { spec, remove } = syntheticSpec();
afterAll(remove);

const needs = (bundle: Record<string, unknown>, operationId: string) =>
  handWorkOf(bundle)
    .get(operationId)!
    .map((w) => w.need);

describe('what an operation still needs by hand', () => {
  it('a read-only one: the sandbox route, the docs samples and the ledger entries, nothing in the suite', () => {
    expect(needs(spec.bundle, WIDGETS)).toEqual(['sandbox-route', 'docs-sample', 'ledger']);
    expect(
      handWorkOf(spec.bundle)
        .get(WIDGETS)!
        .find((w) => w.need === 'docs-sample')!.says,
    ).toContain(`apps/doc-check/samples/operations/${WIDGETS}.ts`);
  });

  it('a write whose links say nothing and whose body has no example: also its happy path and a body', () => {
    expect(needs(spec.bundle, GADGETS)).toEqual([
      'sandbox-route',
      'docs-sample',
      'ledger',
      'write-happy-path',
      'request-body',
    ]);
  });

  it('one addressing something the target has no id setting for: a hand sender', () => {
    const work = handWorkOf(spec.bundle).get(WIDGET)!;
    expect(work.map((w) => w.need)).toEqual(['sandbox-route', 'docs-sample', 'ledger', 'sender']);
    expect(work.at(-1)!.says).toContain('path widget');
  });

  it("the spec's operations need nothing more in the suite: their hand suites give what the spec cannot say", () => {
    const bundle = loadSpec().bundle;
    for (const [operationId, work] of handWorkOf(bundle))
      expect(
        work.map((w) => w.need),
        operationId,
      ).toEqual(['sandbox-route', 'docs-sample', 'ledger']);
  });

  it('a hand suite whose operation left the spec stops the suite, naming it', () => {
    const bundle = structuredClone(loadSpec().bundle);
    delete bundle.paths['/open/workspaces/{workspaceId}/forms'];
    let thrown: unknown;
    try {
      suitesFor(bundle);
    } catch (error) {
      thrown = error;
    }
    expect(isContractTestsError(thrown) && thrown.kind).toBe('hand_suite_without_operation');
    expect((thrown as Error).message).toContain('listWorkspaceForms');
  });

  it('until the sandbox has its route, the derived live checks fail there (404 or 405); without an id they skip, saying why', async () => {
    const { report } = await runContract({
      spec,
      targets: ['sandbox'],
      operations: [WIDGETS, WIDGET],
      write: false,
      strict: false,
      proxyPass: false,
      signal: new AbortController().signal,
      log: () => {},
    });
    const happy = (operationId: string) =>
      report.results.find((r) => r.operationId === operationId && r.name === 'happy path: 200 and a valid body')!;
    expect(happy(WIDGETS).outcome).toBe('failed');
    expect([404, 405]).toContain(happy(WIDGETS).failures[0]?.exchange?.status);
    expect(happy(WIDGET)).toMatchObject({
      outcome: 'skipped',
      reason: 'no widget to address (the target has no setting for one)',
    });
  });
});
