// A ledger entry describes its symptom, not only the observation's name: a defect that shows the
// same observation with another status, at another place or with another value is new drift,
// while the symptom the service (and the observed sandbox) shows stays known.
import { readDriftLedger } from '@forms-api/spec/drift';
import { describe, expect, it } from 'vitest';
import { matchFailure } from '../src/drift.js';
import type { Failure, Symptom } from '../src/model.js';
import { runTarget } from '../src/runner.js';
import { startMutatingProxy, type ProxyFault } from '../src/selftest/mutating-proxy.js';
import { loadSpec } from '../src/spec.js';
import { suitesFor } from '../src/suites/index.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';

const ledger = readDriftLedger();

const seen = (
  operationId: string,
  observation: string,
  symptom: Symptom | undefined,
  traits: string[] = [],
): Failure => ({
  kind: 'behaviour',
  operationId,
  observation,
  message: observation,
  ...(symptom ? { symptom } : {}),
  situation: { abilities: ['forms-read', 'forms-write', 'manage-integrations'], query: {}, traits },
});

// Each observation of the ledger with a symptom: what the service shows (known) and defects that
// look alike by name (new).
const CASES: Array<{
  entry: string;
  operationId: string;
  observation: string;
  traits?: string[];
  real: Symptom;
  lookAlikes: Array<[string, Symptom | undefined]>;
}> = [
  {
    entry: 'update-submission-completion-time-as-text-accepted',
    operationId: 'updateFormSubmission',
    observation: 'forbidden-body-accepted',
    traits: ['body-invalid', 'body-holds-number-as-text'],
    real: { status: 200, at: ['/completion_time'] },
    lookAlikes: [
      ['accepted with another status', { status: 202, at: ['/completion_time'] }],
      ['a number as text accepted in another field', { status: 200, at: ['/rating'] }],
      ['no symptom stated', undefined],
    ],
  },
  {
    entry: 'submissions-links-drop-filters',
    operationId: 'listFormSubmissions',
    observation: 'links-drop-filters',
    real: { at: ['status', 'per_page'] },
    lookAlikes: [
      ['links that keep the filters and lead to another page', { at: [] }],
      ['a link that drops the page', { at: ['status', 'page'] }],
    ],
  },
  {
    entry: 'update-submission-replaces-all-answers',
    operationId: 'updateFormSubmission',
    observation: 'unsent-answers-changed',
    real: { at: ['11dfad1e', 'completion_time'], received: ['absent', 'null'] },
    lookAlikes: [['an unsent answer overwritten with another value', { at: ['11dfad1e'], received: ['string'] }]],
  },
  {
    entry: 'update-submission-emits-webhook',
    operationId: 'updateFormSubmission',
    observation: 'update-sends-webhook',
    real: { received: ['the-updated-submission'] },
    lookAlikes: [['a webhook about another submission', { received: ['another-submission'] }]],
  },
  {
    entry: 'webhook-success-recorded-without-dispatch',
    operationId: 'listIntegrationEvents',
    observation: 'success-event-without-delivery',
    real: { received: ['Success'] },
    lookAlikes: [["an event in the contract's wording", { received: ['success'] }]],
  },
  {
    entry: 'submission-file-answer-object',
    operationId: 'listFormSubmissions',
    observation: 'file-answer-not-a-list',
    real: { at: ['b2d123d8'], received: ['object'] },
    lookAlikes: [['a file answer as a bare URL', { at: ['b2d123d8'], received: ['string'] }]],
  },
  {
    entry: 'webhook-submission-empty-array',
    operationId: 'createFormAnswer',
    observation: 'webhook-answers-not-an-object',
    real: { at: ['/submission'], received: ['empty-array'] },
    lookAlikes: [
      ['answers sent as null', { at: ['/submission'], received: ['null'] }],
      ['answers sent as a list of values', { at: ['/submission'], received: ['array'] }],
    ],
  },
];

describe('a behavioural ledger entry matches its symptom', () => {
  it.each(CASES)('$observation as the service shows it is $entry', (c) => {
    const verdict = matchFailure(ledger, seen(c.operationId, c.observation, c.real, c.traits));
    expect(verdict).toMatchObject({ known: true, entryIds: [c.entry] });
  });

  it.each(CASES.flatMap((c) => c.lookAlikes.map(([label, symptom]) => ({ ...c, label, symptom }))))(
    '$observation, $label, is new drift',
    (c) => {
      expect(matchFailure(ledger, seen(c.operationId, c.observation, c.symptom, c.traits)).known).toBe(false);
    },
  );

  it('every behavioural entry whose observation can differ states a symptom', () => {
    // Without one: what shows one way only (nothing arrived, the same id again), and search,
    // whose query or trait pins the symptom.
    const without = ledger.entries.flatMap((e) => e.match.filter((m) => m.kind === 'behaviour' && !m.symptom));
    for (const m of without) {
      expect(m.kind === 'behaviour' && m.observation).toMatch(
        /^(partial-sends-no-webhook|answer-resends-webhook-for-existing-submission|search-matches-no-value)$/,
      );
      if (m.kind === 'behaviour' && m.observation === 'search-matches-no-value') expect(m.when).toBeDefined();
    }
  });
});

describe('the links check on the observed sandbox', () => {
  const spec = loadSpec();
  const linksCheck = suitesFor(spec.bundle)
    .filter((s) => s.operationId === 'listFormSubmissions')
    .map((s) => ({ ...s, checks: s.checks.filter((c) => c.name === 'pagination links keep the filters') }));

  async function runLinksCheck(fault?: ProxyFault) {
    const sandbox = await startSandboxTarget({ behaviour: 'observed', proxyPass: false });
    const proxy = await startMutatingProxy(sandbox.baseUrl, fault);
    try {
      const results = await runTarget(
        { ...sandbox, baseUrl: proxy.baseUrl },
        { spec, suites: linksCheck, signal: new AbortController().signal, operations: ['listFormSubmissions'] },
      );
      const result = results.find((r) => r.name === 'pagination links keep the filters');
      expect(result).toBeDefined();
      return result!;
    } finally {
      await proxy.close();
      await sandbox.stop();
    }
  }

  it("reports the service's links, which drop the filters, as known drift", async () => {
    const result = await runLinksCheck();
    expect(result.outcome, result.reason).toBe('known-drift');
    expect(result.driftIds).toEqual(['submissions-links-drop-filters']);
  });

  it('fails on links that keep every parameter but write another page size', async () => {
    // Links that keep the filter and the page but not the size asked for (a paginator's own
    // default, say): the same observation, with no parameter dropped, so not the service's drift.
    const result = await runLinksCheck({
      response(req, res) {
        const [path, query = ''] = req.path.split('?', 2) as [string, string?];
        const asked = new URLSearchParams(query);
        if (!/^\/open\/forms\/\d+\/submissions$/.test(path) || asked.get('status') !== 'completed') return;
        if ((asked.get('page') ?? '1') !== '1' || res.status !== 200) return;
        const body = JSON.parse(res.body);
        const next = new URL(body.links.next);
        next.search = new URLSearchParams({ status: 'completed', per_page: '3', page: '2' }).toString();
        body.links.next = next.href;
        res.body = JSON.stringify(body);
      },
    });
    expect(result.outcome, result.reason).toBe('failed');
    expect(result.reason).toMatch(/links-drop-filters: links\.next drops nothing and leads to a different page/);
  });
});
