// The ledger's TypeScript types (dist/drift-ledger.d.ts, exported by `@forms-api/spec/drift`) are
// what drift.schema.json says today: regenerated here and compared, so a schema change without
// `pnpm bundle` fails, and each entry property is declared, optional exactly when not required.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDriftLedger } from '../lib/drift.mjs';
import { DRIFT_TYPES_FILE, driftLedgerTypes } from '../scripts/drift-types.mjs';
import { readJson } from './load-bundle.js';

const shipped = readFileSync(new URL(`../dist/${DRIFT_TYPES_FILE}`, import.meta.url), 'utf8');
const schema = readJson('drift.schema.json');

/** The body of `export interface <name> { … }` in the generated file. */
function interfaceBody(name: string): string {
  const start = shipped.indexOf(`export interface ${name} {\n`);
  expect(start, `${DRIFT_TYPES_FILE} declares interface ${name}`).toBeGreaterThanOrEqual(0);
  return shipped.slice(start, shipped.indexOf('\n}\n', start));
}

describe('the drift ledger types', () => {
  it('are the ones drift.schema.json generates now (run `pnpm bundle` after changing the schema)', async () => {
    expect(shipped).toBe(await driftLedgerTypes());
    expect(shipped.split('\n', 3).join('\n')).toContain('Do not edit by hand');
  });

  it.each([
    ['DriftLedger', schema],
    ['DriftEntry', schema.$defs.entry],
    ['DriftEvidence', schema.$defs.evidence],
    ['DriftSourceCitation', schema.$defs.sourceCitation],
    ['DriftSituation', schema.$defs.situation],
    ['DriftReferenceEntry', schema.$defs.referenceEntry],
    ['DriftReferenceQuote', schema.$defs.referenceQuote],
  ])('declare every property of %s, optional exactly when the schema does not require it', (name, def) => {
    const body = interfaceBody(name);
    const required = new Set<string>(def.required ?? []);
    for (const key of Object.keys(def.properties)) {
      const declared = new RegExp(`^  ${key}(\\??):`, 'm').exec(body);
      expect(declared, `${name}.${key} is declared`).not.toBeNull();
      expect(declared![1] === '?', `${name}.${key} is optional`).toBe(!required.has(key));
    }
  });

  it('name the three kinds of match as a union on `kind`', () => {
    const union = shipped.slice(
      shipped.indexOf('export type DriftMatch ='),
      shipped.indexOf('export type DriftShapeChange'),
    );
    const kinds = schema.$defs.match.oneOf.map((m: any) => m.properties.kind.const);
    expect(kinds).toEqual(['schema', 'status', 'behaviour']);
    for (const kind of kinds) expect(union).toContain(`kind: '${kind}';`);
  });

  it('type what readDriftLedger returns: the shipped dist/drift.json', () => {
    expect(readDriftLedger()).toEqual(readJson('dist/drift.json'));
  });
});
