// Search is probed with words drawn from the listed answers (held by some submissions, not all):
// every hit must hold the word and every listed submission holding it must be a hit. A tenant
// that ignores the search term passed the fixed probes (a value's text is found; `%`, `_`, `0`
// and a field id match everything, which the ledger knows of the service) and fails this.
import fc from 'fast-check';
import type { components } from '@forms-api/types';
import { describe, expect, it } from 'vitest';
import { runTarget } from '../src/runner.js';
import { startMutatingProxy, type ProxyFault } from '../src/selftest/mutating-proxy.js';
import { loadSpec } from '../src/spec.js';
import { suitesFor } from '../src/suites/index.js';
import { termsDrawnFrom } from '../src/suites/list-form-submissions.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';

type Submission = components['schemas']['Submission'];

const spec = loadSpec();
const searchChecks = suitesFor(spec.bundle)
  .filter((s) => s.operationId === 'listFormSubmissions')
  .map((s) => ({ ...s, checks: s.checks.filter((c) => c.name.startsWith('search')) }));

async function runSearchChecks(fault?: ProxyFault) {
  const sandbox = await startSandboxTarget({ behaviour: 'observed', proxyPass: false });
  const proxy = await startMutatingProxy(sandbox.baseUrl, fault);
  try {
    return await runTarget(
      { ...sandbox, baseUrl: proxy.baseUrl },
      { spec, suites: searchChecks, signal: new AbortController().signal, operations: ['listFormSubmissions'] },
    );
  } finally {
    await proxy.close();
    await sandbox.stop();
  }
}

const submission = (id: number, answers: Record<string, unknown>): Submission =>
  ({ id, data: { id, status: 'completed', created_at: '2026-01-01 00:00:00', ...answers } }) as unknown as Submission;

/** An answer: words (some shared, some not, in any case), other text, a number or a boolean. */
const answer = fc.oneof(
  fc
    .array(fc.constantFrom('Osaka', 'lyon', 'HELLO', 'from', 'x1', 'true', 'é漢字'), { maxLength: 4 })
    .map((words) => words.join(' ')),
  fc.string(),
  fc.integer(),
  fc.boolean(),
);

describe('search terms drawn from the data', () => {
  it('are words some listed submissions hold and others do not', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.constantFrom('a', 'b', 'c'), answer), { maxLength: 8 }), (answers) => {
        const rows = answers.map((a, i) => submission(i + 1, a));
        const texts = answers.map((a) => Object.values(a).map((v) => String(v).toLowerCase()));
        for (const term of termsDrawnFrom(rows, 2)) {
          expect(term).toMatch(/^[a-z]{4,}$/);
          // Held as a string by some, by no value of others.
          expect(
            answers.some((a) => Object.values(a).some((v) => typeof v === 'string' && v.toLowerCase().includes(term))),
          ).toBe(true);
          expect(texts.some((values) => values.every((v) => !v.includes(term)))).toBe(true);
        }
      }),
    );
    expect(
      termsDrawnFrom([submission(1, { a: 'Hello from Osaka' }), submission(2, { a: 'Hello from Lyon' })], 2),
    ).toEqual(['osaka', 'lyon']);
    // A boolean reads "true" in some databases' search only: never a term.
    expect(termsDrawnFrom([submission(1, { a: true }), submission(2, { a: 'no' })], 2)).toEqual([]);
  });

  it('pass on the sandbox behaving like the service', async () => {
    const results = await runSearchChecks();
    const drawn = results.filter(
      (r) => r.name === 'search: a term drawn from the answers lists exactly the submissions holding it',
    );
    expect(drawn.map((r) => r.outcome)).toContain('passed');
    expect(results.filter((r) => r.outcome === 'failed').map((r) => r.reason)).toEqual([]);
  });

  it('fail on a tenant that ignores the search term', async () => {
    const results = await runSearchChecks({
      request(req) {
        const [path, query = ''] = req.path.split('?', 2) as [string, string?];
        const params = new URLSearchParams(query);
        params.delete('search');
        req.path = params.size > 0 ? `${path}?${params}` : path;
      },
    });
    const failed = results.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => r.name)).toEqual([
      'search: a term drawn from the answers lists exactly the submissions holding it',
    ]);
    expect(failed[0]!.reason).toMatch(
      /search-matches-no-value: searching "[a-z]{4,}" \(a word of the listed answers\)/,
    );
  });
});
