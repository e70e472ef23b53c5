// Drift matching: each match kind of the ledger, and what must not match.
import { describe, expect, it } from 'vitest';
import { matchFailure, ledgerCheckNames } from '../src/drift.js';
import { loadSpec } from '../src/spec.js';
import type { Failure } from '../src/model.js';

const spec = loadSpec();

describe('drift matching', () => {
  it('matches a schema failure every error of which an entry explains', () => {
    const body = { data: [{ id: 1, slug: 's', title: 't', visibility: 'public', tags: null, views_count: 0, submissions_count: 0, created_at: '2024-11-15T10:30:00+00:00', updated_at: '2024-11-15T10:30:00+00:00', last_edited_human: 'now', closes_at: null, is_closed: false, max_submissions_count: null, max_number_of_submissions_reached: false, plan_tier: 'pro', workspace_id: 1, share_url: 'https://x.example/f' }], meta: { current_page: 1, per_page: 10, total: 1 } };
    const result = spec.validator.validateResponse('listWorkspaceForms', 200, body);
    expect(result.valid).toBe(false);
    const verdict = matchFailure(spec.ledger, { kind: 'schema', message: 'x', operationId: 'listWorkspaceForms', schemaErrors: result.errors });
    expect(verdict.known).toBe(true);
    expect(verdict.entryIds.sort()).toEqual(['form-summary-plan-tier', 'form-summary-tags-null']);
  });

  it('does not match a schema error no entry explains, and names it', () => {
    const failure: Failure = { kind: 'schema', message: 'x', operationId: 'listWorkspaceForms', schemaErrors: [{ instancePath: '/data/0', keyword: 'required', params: { missingProperty: 'share_url' }, schemaPath: '#', message: "must have required property 'share_url'" }] };
    const verdict = matchFailure(spec.ledger, failure);
    expect(verdict.known).toBe(false);
    expect(verdict.unexplained).toHaveLength(1);
  });

  it('matches a status failure by operation, statuses and situation', () => {
    const base: Failure = { kind: 'status', message: 'x', operationId: 'listFormSubmissions', expectedStatus: [422], receivedStatus: 200 };
    expect(matchFailure(spec.ledger, { ...base, when: 'per_page out of bounds' }).entryIds).toEqual(['submissions-per-page-not-validated']);
    expect(matchFailure(spec.ledger, { ...base, when: 'status outside its enum' }).entryIds).toEqual(['submissions-status-not-validated']);
    expect(matchFailure(spec.ledger, { ...base, receivedStatus: 500 }).known).toBe(false);
    expect(matchFailure(spec.ledger, { ...base, operationId: 'listWorkspaceForms' }).known).toBe(false);
  });

  it('matches a named behavioural check', () => {
    const failure: Failure = { kind: 'check', message: 'x', operationId: 'listFormSubmissions', check: 'pagination-links-keep-filters' };
    expect(matchFailure(spec.ledger, failure).entryIds).toEqual(['submissions-links-drop-filters']);
    expect(matchFailure(spec.ledger, { ...failure, check: 'pagination-walk' }).known).toBe(false);
  });

  it('never treats transport or content-type failures as drift', () => {
    expect(matchFailure(spec.ledger, { kind: 'content-type', message: 'x', operationId: 'getForm' }).known).toBe(false);
  });

  it('the suite implements every check the ledger names', async () => {
    const { allSuites } = await import('../src/suites/index.js');
    const names = allSuites.flatMap((s) => s.checks.map((c) => c.name));
    for (const check of ledgerCheckNames(spec.ledger)) {
      expect(names.some((n) => n === check), check).toBe(true);
    }
  });
});
