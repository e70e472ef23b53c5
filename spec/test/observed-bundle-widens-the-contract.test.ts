// The observed bundle (dist/openapi.observed.json) is the contract widened by the drift ledger's
// `shape` changes: every change lands where it says, each value the service sends validates
// against the observed bundle and not against the contract, and every entry whose drift shows as a
// wrong type, a missing or extra key or another enum value carries a shape.
import { describe, expect, it } from 'vitest';
import { createSpecValidator } from '../lib/validator.mjs';
import { applyDriftShapes } from '../scripts/observed-shapes.mjs';
import { bundle, readJson } from './load-bundle.js';
import {
  deliveredEvent,
  formSummaryBase,
  listedSubmission,
  submissionUuid,
  timedOutEvent,
} from './fixtures/observed-values.js';

const ledger = readJson('dist/drift.json');
const observedBundle = readJson('dist/openapi.observed.json');
const contract = createSpecValidator(bundle);
const observed = createSpecValidator(observedBundle);
const { 'x-generated': _generated, ...contractBody } = bundle;

const summary = { ...formSummaryBase, tags: ['a'], is_pro: false };
const { is_pro: _isPro, ...summaryWithoutIsPro } = summary;
const listed = listedSubmission;
const uuid = submissionUuid;

/** A value the service sends, per shape-changing entry: [entry, component, value]. */
const SENT: [string, string, unknown][] = [
  ['form-summary-tags-null', 'FormSummary', { ...summary, tags: null }],
  ['form-summary-plan-tier', 'FormSummary', { ...summaryWithoutIsPro, plan_tier: 'business' }],
  [
    'update-submission-response-shape',
    'UpdatedSubmission',
    { type: 'success', message: 'Updated.', data: { ...listed, submission_id: uuid } },
  ],
  ['events-shape', 'WebhookEvent', deliveredEvent],
  ['events-shape', 'WebhookEvent', timedOutEvent],
  [
    'webhook-submission-empty-array',
    'SubmissionCreatedPayload',
    {
      form_id: 12,
      form_title: 'Contact',
      submission_id: 7,
      submission: [],
      data: [],
      message: 'Please do not use the `submission` field.',
    },
  ],
];

// Extra keys are only refused by closed validation (the contract suite's), as the contract's objects are open.
const closedContract = createSpecValidator(bundle, { closed: true });
const closedObserved = createSpecValidator(observedBundle, { closed: true });
const EXTRA: [string, string, unknown][] = [
  [
    'submission-resource-extra-keys',
    'Submission',
    {
      ...listed,
      data: { ...listed.data, submission_id: uuid, ip_address: '203.0.113.7' },
      submission_id: uuid,
      meta: { attribution: { utm_source: 'news' } },
    },
  ],
  [
    'form-list-meta-extended',
    'FormSummaryPage',
    {
      data: [],
      links: { first: 'https://f.example/x?page=1', last: 'https://f.example/x?page=1', prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        links: [],
        path: 'https://f.example/x',
        per_page: 10,
        to: null,
        total: 0,
      },
    },
  ],
];

describe('observed bundle', () => {
  it('is the contract widened by every shape change of the ledger, as `pnpm bundle` wrote it', () => {
    const { observed: rebuilt, applied } = applyDriftShapes(contractBody, ledger);
    const { 'x-generated': _header, ...written } = observedBundle;
    expect(written).toEqual(rebuilt);
    const changes = ledger.entries.flatMap((e: any) => (e.shape ?? []).map((c: any) => ({ entry: e.id, at: c.at })));
    expect(applied).toEqual(changes);
  });

  it('marks every changed place with the entries that changed it', () => {
    for (const entry of ledger.entries.filter((e: any) => e.shape)) {
      for (const change of entry.shape) {
        const node = change.at
          .slice(2)
          .split('/')
          .reduce((acc: any, key: string) => acc?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], observedBundle);
        expect(node?.['x-drift'], `${entry.id} at ${change.at}`).toContain(entry.id);
      }
    }
  });

  it.each(SENT)(
    '%s: the observed bundle admits what the service sends as %s, the contract does not',
    (_id, component, value) => {
      expect(observed.validateComponent(component, value).errors).toEqual([]);
      expect(contract.validateComponent(component, value).valid).toBe(false);
    },
  );

  it.each(EXTRA)('%s: the observed bundle names the extra keys the service sends in %s', (_id, component, value) => {
    expect(closedObserved.validateComponent(component, value).errors).toEqual([]);
    expect(closedContract.validateComponent(component, value).valid).toBe(false);
  });

  it('still describes the contract where no drift is known', () => {
    expect(observed.validateComponent('FormSummary', summary).errors).toEqual([]);
    expect(observed.validateComponent('FormSummary', { ...summary, tags: 'a' }).valid).toBe(false);
    expect(
      observed.validateComponent('WebhookEvent', { date: '2026-08-22 10:31', status: 'Pending', data: {} }).valid,
    ).toBe(false);
  });

  // A drift that shows as a wrong type, a missing or extra key or an enum value changes what
  // arrives; its shape is what the service's types are generated from.
  it('gives a shape to every entry recognised by a type, key or enum error', () => {
    const shapeKeywords = /^(?:type|required|enum|\((?:additional\|unevaluated)\)Properties)$/;
    const missing = ledger.entries
      .filter((e: any) => e.match.some((m: any) => m.kind === 'schema' && shapeKeywords.test(m.keyword)))
      .filter((e: any) => !e.shape)
      .map((e: any) => e.id);
    expect(missing).toEqual([]);
  });

  it('refuses a change that does not land where it says', () => {
    const entry = (shape: unknown) => ({ entries: [{ id: 'broken', shape: [shape] }] });
    expect(() =>
      applyDriftShapes(contractBody, entry({ at: '#/components/schemas/Nope/properties/x', also: { type: 'null' } })),
    ).toThrow(/broken: shape at .*parent does not exist/);
    expect(() =>
      applyDriftShapes(
        contractBody,
        entry({ at: '#/components/schemas/FormSummary/properties/nope', instead: { type: 'null' } }),
      ),
    ).toThrow(/nothing there to replace/);
    expect(() =>
      applyDriftShapes(
        contractBody,
        entry({ at: '#/components/schemas/FormSummary/properties/plan_tier', optional: true }),
      ),
    ).toThrow(/optional names a key/);
    expect(() =>
      applyDriftShapes(
        contractBody,
        entry({ at: '#/components/schemas/FormSummary/properties/tags', also: { type: 'null' }, optional: true }),
      ),
    ).toThrow(/exactly one of/);
  });
});
