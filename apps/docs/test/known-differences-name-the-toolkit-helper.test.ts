// Where this toolkit already does what a ledger entry's advice says, the "Known differences" page
// names the helper after the advice; each named entry is in the ledger and each helper exists.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDriftLedger } from '@forms-api/spec/drift';
import { appDir } from '../src/build.ts';
import { knownDifferencesGuide } from '../src/known-differences.ts';
import { TOOLKIT_HELPERS } from '../src/toolkit-helpers.ts';

const ledger = readDriftLedger();
const source = (file: string) => readFileSync(join(appDir, '../..', file), 'utf8');

describe('the toolkit helper of a ledger entry', () => {
  it('is named after the advice of its entry on the page', () => {
    const page = knownDifferencesGuide(ledger, { kind: 'not-run', path: 'r.json' });
    if (!page.ok) throw page.error;
    for (const [id, helper] of Object.entries(TOOLKIT_HELPERS)) {
      const entry = ledger.entries.find((e) => e.id === id);
      expect(entry, `${id} is a ledger entry`).toBeDefined();
      const at = page.value.body.indexOf(`Entry \`${id}\``);
      const section = page.value.body.slice(at, page.value.body.indexOf('\n## ', at));
      expect(section).toContain(`**With this toolkit:** ${helper}`);
      expect(section.indexOf('**With this toolkit:**')).toBeGreaterThan(section.indexOf('**What to do:**'));
    }
    expect(Object.keys(TOOLKIT_HELPERS)).toContain('submissions-links-drop-filters');
  });

  it('names helpers the packages have', () => {
    const resources = source('packages/client/src/resources.ts');
    for (const method of ['iterate(', 'pages(', 'updateKeeping('])
      expect(resources, `@forms-api/client has ${method}`).toContain(method);
    expect(source('packages/webhook-inbox/src/index.ts')).toContain('submissionKeyFor');
    expect(source('packages/webhook-inbox/src/delivery.ts')).toContain('submissionKey: string | null');
  });
});
