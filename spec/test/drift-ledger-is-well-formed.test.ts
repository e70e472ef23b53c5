// The drift ledger has the documented shape, names operations and schemas that exist, and its
// regular expressions compile: the contract suite relies on all three.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { bundle, operations, readJson } from './load-bundle.js';

const ledger = readJson('dist/drift.json');
const operationIds = new Set([...operations()].map((o) => o.operation.operationId));

describe('drift ledger', () => {
  it('matches drift.schema.json', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(readJson('drift.schema.json'));
    const { $comment: _generated, ...body } = ledger;
    expect(validate(body), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('has unique ids', () => {
    const ids = ledger.entries.map((e: any) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(ledger.entries.map((e: any) => [e.id, e]))('%s names what exists', (_id, entry: any) => {
    if (entry.operationId) expect(operationIds).toContain(entry.operationId);
    if (entry.schema) expect(Object.keys(bundle.components.schemas)).toContain(entry.schema);
    if (entry.webhook) expect(Object.keys(bundle.webhooks)).toContain(entry.webhook);
    for (const match of entry.match) {
      expect(operationIds).toContain(match.operationId);
      if (match.kind === 'schema') {
        expect(() => new RegExp(match.instancePath)).not.toThrow();
        expect(() => new RegExp(`^(?:${match.keyword})$`)).not.toThrow();
      }
      if (match.kind === 'status') {
        const documented = Object.keys([...operations()].find((o) => o.operation.operationId === match.operationId)!.operation.responses);
        for (const status of match.expected) expect(documented).toContain(String(status));
      }
    }
  });

  it('records every contradiction of the published contract named by the observed facts', () => {
    const ids = ledger.entries.map((e: any) => e.id);
    for (const id of ['form-summary-plan-tier', 'submissions-per-page-not-validated', 'submissions-links-drop-filters', 'submissions-partial-filter-not-gated', 'update-submission-response-shape', 'update-submission-replaces-all-answers', 'update-submission-emits-webhook', 'events-shape']) {
      expect(ids).toContain(id);
    }
  });
});
