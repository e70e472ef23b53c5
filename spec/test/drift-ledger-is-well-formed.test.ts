// The drift ledger has the documented shape, names operations and schemas that exist, compiles its
// regular expressions (the contract suite relies on all three), and every entry carries evidence an
// integrator can follow: lines of the service's public source at the pinned commit, advice, and no
// pointer to a file that does not ship with this package.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { bundle, operations, readJson, resolve } from './load-bundle.js';

const ledger = readJson('dist/drift.json');
// The webhook's operation counts too: a payload schema error is reported under its operationId.
const webhookOperationIds = Object.values<any>(bundle.webhooks ?? {}).flatMap((item) =>
  Object.values<any>(item).map((op) => op.operationId),
);
const operationIds = new Set([...[...operations()].map((o) => o.operation.operationId), ...webhookOperationIds]);
const entries: any[] = ledger.entries;
const byId = (ids: string[]) => ids.map((id) => [id, entries.find((e) => e.id === id)] as const);

/** Every string anywhere in a value, with its JSON path, for the scans below. */
function* strings(value: unknown, path = '$'): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) yield* strings(v, `${path}.${k}`);
}

/**
 * References to material that does not ship with @forms-api/spec: the notes the ledger was first
 * written from ("facts §2.6"), the published contract's file in the authors' workspace, and
 * absolute paths of the machine the ledger was written on.
 */
const OUTSIDE_REFERENCES = [
  /facts\s*§/i,
  /§\s*\d/,
  /observed-service/i,
  /shared\/(?:facts|seed)/i,
  /seed\/000_/i,
  /(?:^|[\s`'"(])\/(?:work|tmp|home|Users)\//,
];

describe('drift ledger', () => {
  it('matches drift.schema.json', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(readJson('drift.schema.json'));
    const { $comment: _generated, ...body } = ledger;
    expect(validate(body), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('has unique ids', () => {
    const ids = entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(entries.map((e) => [e.id, e]))('%s names what exists', (_id, entry: any) => {
    if (entry.operationId) expect(operationIds).toContain(entry.operationId);
    if (entry.schema) expect(Object.keys(bundle.components.schemas)).toContain(entry.schema);
    if (entry.webhook) expect(Object.keys(bundle.webhooks)).toContain(entry.webhook);
    for (const match of entry.match) {
      expect(operationIds).toContain(match.operationId);
      if (match.kind === 'schema') {
        expect(() => new RegExp(match.instancePath)).not.toThrow();
        expect(() => new RegExp(`^(?:${match.keyword})$`)).not.toThrow();
      }
    }
  });

  it.each(entries.map((e) => [e.id, e]))(
    '%s cites the service source at the pinned commit, with lines',
    (_id, entry: any) => {
      const { repo, commit } = ledger.upstream;
      const { sources } = entry.evidence;
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) {
        expect({ repo: source.repo, commit: source.commit }, source.path).toEqual({ repo, commit });
        expect(source.path).not.toMatch(/^\/|(?:^|\/)\.\.(?:\/|$)|:\/\//);
        expect(source.line).toBeGreaterThanOrEqual(1);
        if (source.endLine !== undefined) expect(source.endLine).toBeGreaterThanOrEqual(source.line);
      }
      for (const history of entry.evidence.history ?? []) expect(history.repo).toBe(repo);
      expect(entry.evidence.integratorAdvice.length).toBeGreaterThan(20);
    },
  );

  it('pins the framework it cites to the version the upstream lock file names', () => {
    const pinned = new Map<string, string>(ledger.upstream.frameworks.map((f: any) => [f.package, f.version]));
    for (const entry of entries) {
      for (const citation of entry.evidence.framework ?? []) {
        expect(pinned.get(citation.package), `${entry.id}: ${citation.package}`).toBe(citation.version);
      }
    }
  });

  it('refers to nothing outside this repository and the service source', () => {
    const found = [...strings(ledger)].filter(([, text]) => OUTSIDE_REFERENCES.some((pattern) => pattern.test(text)));
    expect(found).toEqual([]);
  });

  it('quotes the published contract in every entry: nothing departs from the spec alone', () => {
    for (const entry of entries) {
      expect(entry.contractQuotes?.length, entry.id).toBeGreaterThan(0);
      for (const quote of entry.contractQuotes) expect(quote.trim(), entry.id).toBe(quote);
      expect(entry, entry.id).not.toHaveProperty('departsFrom');
    }
  });

  // A status match names a status the operation documents; a status the contract never promised
  // (a 422 or 402 the published text does not show) cannot be drift from it.
  it.each(entries.map((e) => [e.id, e]))('%s expects only statuses the spec documents', (_id, entry: any) => {
    for (const match of entry.match.filter((m: any) => m.kind === 'status')) {
      const documented = Object.keys(
        [...operations()].find((o) => o.operation.operationId === match.operationId)!.operation.responses,
      );
      for (const status of match.expected)
        expect(documented, `${entry.id} expects ${status}`).toContain(String(status));
    }
  });

  it('says what the suite must learn to recognise wherever it has no match yet', () => {
    for (const entry of entries.filter((e) => e.match.length === 0)) expect(entry.pendingMatch, entry.id).toBeTruthy();
  });

  it.each(
    byId([
      'form-summary-plan-tier',
      'submissions-per-page-not-validated',
      'submissions-links-drop-filters',
      'submissions-partial-filter-not-gated',
      'update-submission-response-shape',
      'update-submission-replaces-all-answers',
      'update-submission-requires-every-required-field',
      'update-submission-captcha-token-required',
      'update-submission-emits-webhook',
      'submissions-search-zero-ignored',
      'events-shape',
      'webhook-success-recorded-without-dispatch',
      'webhook-authorization-header-refused',
      'submission-file-answer-object',
      'webhook-submission-empty-array',
      'partial-submission-webhook-on-completion',
      'answer-edit-resends-webhook',
      'submission-resource-extra-keys',
      'update-submission-file-answers-as-listed-refused',
    ]),
  )('records the contradiction of the published contract %s', (id, entry) => {
    expect(entry, id).toBeDefined();
    expect(entry!.contractQuotes.length).toBeGreaterThan(0);
  });

  // These differed only from the spec's own observed description; the spec now describes the
  // service's behaviour (an unknown status is ignored, the download may be a 302, a body without
  // a known integration_id answers 500), so they are no drift. An inactive integration sending
  // nothing contradicts no promise either: the contract's sentence is troubleshooting advice.
  it.each([
    'submissions-status-not-validated',
    'submission-file-download-redirect',
    'integration-missing-kind-500',
    'inactive-integration-sends-nothing',
  ])('has no entry %s: the spec describes that behaviour as observed', (id) => {
    expect(entries.find((e) => e.id === id)).toBeUndefined();
  });

  it('recognises a negative per_page by the page it answers, not by a 422 the contract never promised', () => {
    const entry = entries.find((e) => e.id === 'submissions-per-page-not-validated');
    const negative = { query: { per_page: '^\\s*-\\d' } };
    expect(entry.match).toEqual([
      {
        kind: 'schema',
        operationId: 'listFormSubmissions',
        instancePath: '^/data$',
        keyword: 'maxItems',
        when: negative,
      },
      {
        kind: 'schema',
        operationId: 'listFormSubmissions',
        instancePath: '^/meta/per_page$',
        keyword: 'minimum',
        when: negative,
      },
    ]);
    expect(new RegExp(negative.query.per_page).test('-1')).toBe(true);
    expect(new RegExp(negative.query.per_page).test('101')).toBe(false);
    const page = resolve(bundle.components.schemas.SubmissionPage);
    expect(page.properties.data.maxItems).toBe(100);
    expect(resolve(page.properties.meta).properties.per_page.minimum).toBe(1);
  });

  // The second audit (D5): "send every answer" fails on forms with files, so no advice may say it
  // without saying how file and signature answers are sent back.
  it('never advises sending every answer back without the form file answers must take', () => {
    for (const entry of entries) {
      const advice: string = entry.evidence.integratorAdvice;
      if (!/send (?:every|the complete|the whole)/i.test(advice)) continue;
      expect(advice, entry.id).toMatch(/file_name|file names/);
    }
  });

  // The documented status of a status match (the drift test above) is about `expected`; the
  // webhook's schema matches name its operation, so a payload error is matched like a response's.
  it('recognises the empty-array webhook payload by its schema error', () => {
    const entry = entries.find((e) => e.id === 'webhook-submission-empty-array');
    expect(entry.match).toEqual([
      { kind: 'schema', operationId: 'submissionCreatedWebhook', instancePath: '^/submission$', keyword: 'type' },
      // The answer's own observation, so the entry is expected wherever createFormAnswer runs.
      {
        kind: 'behaviour',
        operationId: 'createFormAnswer',
        observation: 'webhook-answers-not-an-object',
        symptom: { at: '^/submission$', received: '^empty-array$' },
      },
    ]);
    expect(bundle.components.schemas.SubmissionCreatedPayload.properties.submission.type).toBe('object');
  });

  it('keeps the Authorization header refusal recognisable on create and update', () => {
    const entry = entries.find((e) => e.id === 'webhook-authorization-header-refused');
    const statuses = entry.match.filter((m: any) => m.kind === 'status');
    expect(statuses.map((m: any) => m.operationId).sort()).toEqual(['createFormIntegration', 'updateFormIntegration']);
    for (const m of statuses)
      expect(m).toMatchObject({
        expected: [200],
        received: [422],
        when: { traits: ['webhook-headers-name-authorization'] },
      });
  });
});
