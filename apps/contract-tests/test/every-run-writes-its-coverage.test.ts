// Every run writes coverage.json beside its other reports and prints its totals per target: a run
// of the embedded sandbox covers every operation of the spec; a run limited to one operation
// covers that one and lists the others as missing (issue 26); it counts, per operation, the
// answers each invariant judged (issue 27).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { operationsOf } from '../src/operations.js';
import { coverageLine, type CoverageReport } from '../src/report/coverage.js';
import { runCli } from '../src/run-cli.js';
import { loadSpec } from '../src/spec.js';

const operationIds = [...operationsOf(loadSpec().bundle).keys()];
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function run(extra: string[]): Promise<{ code: number; out: string[]; dir: string; coverage: CoverageReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-'));
  dirs.push(dir);
  const out: string[] = [];
  const code = await runCli({
    argv: ['--target', 'sandbox', '--explore-budget', '0', '--report-dir', dir, ...extra],
    env: {},
    out: (line) => out.push(line),
    err: () => {},
    signal: new AbortController().signal,
  });
  return { code, out, dir, coverage: JSON.parse(readFileSync(join(dir, 'coverage.json'), 'utf8')) as CoverageReport };
}

const covers = (op: CoverageReport['targets'][number]['operations'][number]): boolean =>
  op.covered.some((i) => i.kind === 'operation');

describe('coverage.json', () => {
  it('a run of the sandbox covers every operation, counts every request it sent, and prints its totals', async () => {
    const { code, out, dir, coverage } = await run([]);
    expect(code).toBe(0);
    const sandbox = coverage.targets.find((t) => t.target === 'sandbox')!;
    expect(sandbox.operations.map((o) => o.operationId)).toEqual(operationIds);
    expect(sandbox.operations.filter((o) => !covers(o)).map((o) => o.operationId)).toEqual([]);
    expect(sandbox.totals.operations).toEqual({ covered: operationIds.length, total: operationIds.length });
    // Every check's requests went through a recorder: the coverage saw what the run says it sent.
    const report = JSON.parse(readFileSync(join(dir, 'contract-report.json'), 'utf8')) as {
      targets: Array<{ name: string; traffic?: { requests: number } }>;
      coverage?: unknown;
    };
    // (The target's request count includes its prism proxy pass, which has a coverage of its own.)
    const sent = coverage.targets
      .filter((t) => t.target === 'sandbox' || t.target === 'sandbox (prism proxy)')
      .reduce((n, t) => n + t.exchanges.total, 0);
    expect(sent).toBe(report.targets.find((t) => t.name === 'sandbox')!.traffic!.requests);
    // The sandbox refuses as the contract says: both kinds of answer were counted, apart.
    expect(sandbox.exchanges.accepted).toBeGreaterThan(0);
    expect(sandbox.exchanges.refused).toBeGreaterThan(0);
    expect(report.coverage).toBeUndefined();
    for (const target of coverage.targets) expect(out).toContain(coverageLine(target));
    expect(out).toContain(`         ${join(dir, 'coverage.json')}`);
    // Each operation names the invariants that judge its answers, with how many each judged; every
    // answer of every operation was held to its schema, and the lists to their pages and parents.
    const judged = (operationId: string) => sandbox.operations.find((o) => o.operationId === operationId)!.invariants;
    for (const op of sandbox.operations)
      expect(op.invariants['answer matches its schema'], op.operationId).toBeGreaterThan(0);
    expect(Object.keys(judged('getForm'))).toEqual(['answer matches its schema']);
    expect(judged('listFormSubmissions')['page agrees with its meta and links']).toBeGreaterThan(0);
    expect(judged('listFormSubmissions')['rows belong to the parent in the path']).toBeGreaterThan(0);
    expect(judged('listFormSubmissions')['rows in the order the spec states']).toBeGreaterThan(0);
    const line = out.find((l) => l.startsWith('sandbox listFormSubmissions: '));
    expect(line).toMatch(
      /^sandbox listFormSubmissions: answer matches its schema \d+, page agrees with its meta and links \d+, rows belong to the parent in the path \d+, rows in the order the spec states \d+; checks \d+ of \d+ ran$/,
    );
  }, 300_000);

  it('a run limited to getForm covers getForm and lists every other operation as missing', async () => {
    const { code, out, coverage } = await run(['--operation', 'getForm']);
    expect(code).toBe(0);
    const sandbox = coverage.targets.find((t) => t.target === 'sandbox')!;
    expect(sandbox.operations.filter(covers).map((o) => o.operationId)).toEqual(['getForm']);
    for (const op of sandbox.operations.filter((o) => o.operationId !== 'getForm')) {
      expect(op.missing[0]).toEqual({ kind: 'operation' });
      expect(op.exchanges).toEqual({ accepted: 0, refused: 0, other: 0, unanswered: 0 });
    }
    const getForm = sandbox.operations.find((o) => o.operationId === 'getForm')!;
    expect(getForm.covered).toEqual(expect.arrayContaining([{ kind: 'response', status: '200' }]));
    expect(sandbox.totals.operations).toEqual({ covered: 1, total: operationIds.length });
    expect(out.find((line) => line.startsWith('sandbox: operations '))).toMatch(
      new RegExp(`^sandbox: operations 1/${operationIds.length}, response codes \\d+/\\d+, parameters \\d+/\\d+`),
    );
  }, 300_000);
});
