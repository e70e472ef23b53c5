// Drift matching by situation: each match kind of the ledger, what must not match, and the
// narrowness the ledger promises (a match names the keys it explains).
import { describe, expect, it } from 'vitest';
import { matchFailure } from '../src/drift.js';
import { loadSpec } from '../src/spec.js';
import type { ErrorObject, Failure, Situation } from '../src/model.js';

const spec = loadSpec();
const situation = (s: Partial<Situation> = {}): Situation => ({
  abilities: ['forms-read', 'forms-write', 'manage-integrations'],
  query: {},
  traits: [],
  ...s,
});
const missing = (instancePath: string, property: string): ErrorObject => ({
  instancePath,
  keyword: 'required',
  params: { missingProperty: property },
  schemaPath: '#',
  message: `must have required property '${property}'`,
});

describe('drift matching', () => {
  it('matches a schema failure every error of which an entry explains', () => {
    const body = {
      data: [
        {
          id: 1,
          slug: 's',
          title: 't',
          visibility: 'public',
          tags: null,
          views_count: 0,
          submissions_count: 0,
          created_at: '2024-11-15T10:30:00+00:00',
          updated_at: '2024-11-15T10:30:00+00:00',
          last_edited_human: 'now',
          closes_at: null,
          is_closed: false,
          max_submissions_count: null,
          max_number_of_submissions_reached: false,
          plan_tier: 'pro',
          workspace_id: 1,
          share_url: 'https://x.example/f',
        },
      ],
      meta: { current_page: 1, per_page: 10, total: 1 },
    };
    const result = spec.validator.validateResponse('listWorkspaceForms', 200, body);
    expect(result.valid).toBe(false);
    const verdict = matchFailure(spec.ledger, {
      kind: 'schema',
      message: 'x',
      operationId: 'listWorkspaceForms',
      schemaErrors: result.errors,
      situation: situation(),
    });
    expect(verdict.known).toBe(true);
    expect(verdict.entryIds.sort()).toEqual(['form-summary-plan-tier', 'form-summary-tags-null']);
  });

  it('does not match a schema error no entry explains, and names it', () => {
    const verdict = matchFailure(spec.ledger, {
      kind: 'schema',
      message: 'x',
      operationId: 'listWorkspaceForms',
      schemaErrors: [missing('/data/0', 'share_url')],
      situation: situation(),
    });
    expect(verdict.known).toBe(false);
    expect(verdict.unexplained).toHaveLength(1);
  });

  it('explains a missing key only when the entry names that key: an update response that loses form_id is new drift', () => {
    const base: Failure = { kind: 'schema', message: 'x', operationId: 'updateFormSubmission', situation: situation() };
    expect(matchFailure(spec.ledger, { ...base, schemaErrors: [missing('/data', 'submitted_at')] }).entryIds).toEqual([
      'update-submission-response-shape',
    ]);
    const lost = matchFailure(spec.ledger, {
      ...base,
      schemaErrors: [missing('/data', 'submitted_at'), missing('/data', 'form_id')],
    });
    expect(lost.known).toBe(false);
    expect(lost.unexplained.map((e) => e.params)).toEqual([{ missingProperty: 'form_id' }]);
  });

  it('matches a status failure by the abilities of its token: any 403 check whose token holds manage-integrations', () => {
    const base: Failure = {
      kind: 'status',
      message: 'x',
      operationId: 'listFormSubmissions',
      expectedStatus: [403],
      receivedStatus: 200,
    };
    expect(
      matchFailure(spec.ledger, {
        ...base,
        situation: situation({ abilities: ['forms-write', 'manage-integrations'] }),
      }).entryIds,
    ).toEqual(['submissions-read-with-manage-integrations']);
    expect(
      matchFailure(spec.ledger, { ...base, situation: situation({ abilities: ['manage-integrations'] }) }).entryIds,
    ).toEqual(['submissions-read-with-manage-integrations']);
    // Without manage-integrations, the same 200 is new drift; so is a token the suite cannot vouch for.
    expect(matchFailure(spec.ledger, { ...base, situation: situation({ abilities: ['forms-write'] }) }).known).toBe(
      false,
    );
    expect(matchFailure(spec.ledger, { ...base, situation: { query: {}, traits: [] } }).known).toBe(false);
    expect(matchFailure(spec.ledger, base).known).toBe(false);
  });

  it('matches a status failure by the query it sent and the traits its check states', () => {
    const partial: Failure = {
      kind: 'status',
      message: 'x',
      operationId: 'listFormSubmissions',
      expectedStatus: [403],
      receivedStatus: 200,
      situation: situation({ query: { status: 'partial' }, traits: ['workspace-below-pro'] }),
    };
    expect(matchFailure(spec.ledger, partial).entryIds).toEqual(['submissions-partial-filter-not-gated']);
    expect(
      matchFailure(spec.ledger, {
        ...partial,
        situation: situation({ query: { status: 'completed' }, traits: ['workspace-below-pro'] }),
      }).known,
    ).toBe(false);
    const update: Failure = {
      kind: 'status',
      message: 'x',
      operationId: 'updateFormSubmission',
      expectedStatus: [200],
      receivedStatus: 422,
      situation: situation({ traits: ['body-omits-required-field'] }),
    };
    expect(matchFailure(spec.ledger, update).entryIds).toEqual(['update-submission-requires-every-required-field']);
    // A 422 to a complete body is nobody's known drift.
    expect(matchFailure(spec.ledger, { ...update, situation: situation() }).known).toBe(false);
  });

  it('matches a schema failure only in the situation its entry names (a negative per_page, not 101)', () => {
    const maxItems: ErrorObject = {
      instancePath: '/data',
      keyword: 'maxItems',
      params: { limit: 100 },
      schemaPath: '#',
      message: 'must NOT have more than 100 items',
    };
    const base: Failure = {
      kind: 'schema',
      message: 'x',
      operationId: 'listFormSubmissions',
      schemaErrors: [maxItems],
    };
    expect(
      matchFailure(spec.ledger, { ...base, situation: situation({ query: { per_page: '-1' } }) }).entryIds,
    ).toEqual(['submissions-per-page-not-validated']);
    expect(matchFailure(spec.ledger, { ...base, situation: situation({ query: { per_page: '101' } }) }).known).toBe(
      false,
    );
  });

  it('matches an observation by name, symptom and situation, whichever check saw it', () => {
    const links: Failure = {
      kind: 'behaviour',
      message: 'x',
      operationId: 'listFormSubmissions',
      observation: 'links-drop-filters',
      symptom: { at: ['status', 'per_page'] },
      situation: situation(),
    };
    expect(matchFailure(spec.ledger, links).entryIds).toEqual(['submissions-links-drop-filters']);
    expect(matchFailure(spec.ledger, { ...links, observation: 'submission-listed-twice' }).known).toBe(false);
    const search = (query: Record<string, string>, traits: string[] = []): Failure => ({
      kind: 'behaviour',
      message: 'x',
      operationId: 'listFormSubmissions',
      observation: 'search-matches-no-value',
      situation: situation({ query, traits }),
    });
    expect(matchFailure(spec.ledger, search({ search: '0' })).entryIds).toEqual(['submissions-search-zero-ignored']);
    expect(matchFailure(spec.ledger, search({ search: '%' })).entryIds).toEqual([
      'submissions-search-matches-keys-and-wildcards',
    ]);
    expect(matchFailure(spec.ledger, search({ search: 'f1a2' }, ['term-is-a-field-id'])).entryIds).toEqual([
      'submissions-search-matches-keys-and-wildcards',
    ]);
    // A word of the answers found in a key inside a structured answer: the service's reading.
    expect(matchFailure(spec.ledger, search({ search: 'osaka' }, ['term-in-answer-json-only'])).entryIds).toEqual([
      'submissions-search-matches-keys-and-wildcards',
    ]);
    // A plain word matching submissions that do not contain it is new drift.
    expect(matchFailure(spec.ledger, search({ search: 'alice' })).known).toBe(false);
  });

  it('never treats transport or content-type failures as drift', () => {
    expect(
      matchFailure(spec.ledger, { kind: 'content-type', message: 'x', operationId: 'getForm', situation: situation() })
        .known,
    ).toBe(false);
    expect(
      matchFailure(spec.ledger, { kind: 'transport', message: 'x', operationId: 'getForm', situation: situation() })
        .known,
    ).toBe(false);
  });
});
